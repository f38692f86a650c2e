/**
 * Standalone mode keeps the notifications KEK in <dataDir>/notifications-secrets.json, mode
 * 0600, next to the PGlite files, so webhook signing secrets keep opening across restarts.
 * (Cluster mode takes it from PETRI_NOTIFICATIONS_KEK.)
 */
import { randomBytes } from "node:crypto";
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { KEK_BYTES, decodeBase64 } from "@petri/service-kit";
import { z } from "zod";

export const NOTIFICATIONS_SECRETS_FILE = "notifications-secrets.json";

const fileSchema = z.object({ version: z.literal(1), kek: z.string() });

async function readKek(file: string): Promise<Buffer> {
  const info = await stat(file);
  // Someone loosened the mode: tighten it again rather than leave the key readable.
  if (process.platform !== "win32" && (info.mode & 0o077) !== 0) await chmod(file, 0o600);
  let parsed: z.infer<typeof fileSchema>;
  try {
    parsed = fileSchema.parse(JSON.parse(await readFile(file, "utf8")));
  } catch {
    throw new Error(`${file} is not a valid notifications secrets file (expected {"version":1,"kek":…})`);
  }
  const kek = decodeBase64(parsed.kek);
  if (!kek || kek.length !== KEK_BYTES)
    throw new Error(`${file}: "kek" must be ${KEK_BYTES} bytes of base64`);
  return kek;
}

/**
 * Reads the KEK from <dataDir>/notifications-secrets.json, creating the file with a fresh
 * random key on first use. Creation is atomic and exclusive (a private temporary file
 * hard-linked into place), so two processes starting at once share one key. For an
 * in-memory database ("memory://") a key is generated and never written.
 */
export async function loadOrCreateNotificationsKek(dataDir: string): Promise<Buffer> {
  if (/^[a-z]+:\/\//.test(dataDir)) return randomBytes(KEK_BYTES);
  const file = path.join(dataDir, NOTIFICATIONS_SECRETS_FILE);
  try {
    return await readKek(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const kek = randomBytes(KEK_BYTES);
  const body = `${JSON.stringify({ version: 1, kek: kek.toString("base64") }, null, 2)}\n`;
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(temporary, body, { mode: 0o600, flag: "wx" });
  try {
    await link(temporary, file);
    return kek;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    // Another process created it first: use theirs.
    return readKek(file);
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}
