/**
 * Standalone mode keeps identity's two secrets (the KEK and the API key pepper) in
 * <dataDir>/identity-secrets.json, mode 0600, next to the PGlite files: signing keys and API
 * keys then keep working across restarts. (Cluster mode takes them from the environment.)
 */
import { randomBytes } from "node:crypto";
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { KEK_BYTES, decodeBase64 } from "@petri/service-kit";
import { z } from "zod";
import { API_KEY_PEPPER_MIN_BYTES } from "./api-keys.js";

export const IDENTITY_SECRETS_FILE = "identity-secrets.json";

export interface IdentitySecrets {
  /** 32 bytes: PETRI_IDENTITY_KEK. */
  kek: Buffer;
  /** 32 bytes: PETRI_API_KEY_PEPPER. */
  apiKeyPepper: Buffer;
}

const fileSchema = z.object({
  version: z.literal(1),
  kek: z.string(),
  api_key_pepper: z.string(),
});

export function generateIdentitySecrets(): IdentitySecrets {
  return { kek: randomBytes(KEK_BYTES), apiKeyPepper: randomBytes(API_KEY_PEPPER_MIN_BYTES) };
}

function parseSecrets(text: string, file: string): IdentitySecrets {
  let parsed: z.infer<typeof fileSchema>;
  try {
    parsed = fileSchema.parse(JSON.parse(text));
  } catch {
    throw new Error(
      `${file} is not a valid identity secrets file (expected {"version":1,"kek":…,"api_key_pepper":…})`,
    );
  }
  const kek = decodeBase64(parsed.kek);
  const apiKeyPepper = decodeBase64(parsed.api_key_pepper);
  if (!kek || kek.length !== KEK_BYTES)
    throw new Error(`${file}: "kek" must be ${KEK_BYTES} bytes of base64`);
  if (!apiKeyPepper || apiKeyPepper.length < API_KEY_PEPPER_MIN_BYTES)
    throw new Error(`${file}: "api_key_pepper" must be at least ${API_KEY_PEPPER_MIN_BYTES} bytes of base64`);
  return { kek, apiKeyPepper };
}

async function readSecrets(file: string): Promise<IdentitySecrets> {
  const info = await stat(file);
  // Someone loosened the mode: tighten it again rather than leave the secrets readable.
  if (process.platform !== "win32" && (info.mode & 0o077) !== 0) await chmod(file, 0o600);
  return parseSecrets(await readFile(file, "utf8"), file);
}

/**
 * Reads <dataDir>/identity-secrets.json, creating it with fresh random secrets on first use.
 * Creation is atomic and exclusive (written to a private temporary file, then hard-linked
 * into place), so two processes starting at once end up with the same secrets. For an
 * in-memory database ("memory://") the secrets are generated and never written.
 */
export async function loadOrCreateIdentitySecrets(dataDir: string): Promise<IdentitySecrets> {
  if (/^[a-z]+:\/\//.test(dataDir)) return generateIdentitySecrets();
  const file = path.join(dataDir, IDENTITY_SECRETS_FILE);
  try {
    return await readSecrets(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const secrets = generateIdentitySecrets();
  const body = `${JSON.stringify(
    {
      version: 1,
      kek: secrets.kek.toString("base64"),
      api_key_pepper: secrets.apiKeyPepper.toString("base64"),
    },
    null,
    2,
  )}\n`;
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(temporary, body, { mode: 0o600, flag: "wx" });
  try {
    await link(temporary, file);
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    // Another process created it first: use theirs.
    return readSecrets(file);
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}
