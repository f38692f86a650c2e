/**
 * Standalone mode keeps a service's random secrets (key-encryption keys, peppers) in a JSON
 * file under the data directory, mode 0600, next to the database files, so what they sealed or
 * hashed keeps working across restarts. (Cluster mode takes them from the environment.)
 */
import { randomBytes } from "node:crypto";
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { ConfigError } from "./config.js";
import { decodeBase64 } from "./key-encryption.js";

export interface SecretSize {
  /** How many random bytes a new secret gets. */
  bytes: number;
  /** The fewest bytes a stored secret may have; without it, exactly `bytes`. */
  minBytes?: number;
}

export interface SecretsFileSpec<Name extends string> {
  /** The file's name under the data directory, e.g. "identity-secrets.json". */
  fileName: string;
  /** What the file holds, for error messages, e.g. "identity secrets". */
  description: string;
  /** Each secret by its key in the file (base64 there). */
  secrets: Record<Name, SecretSize>;
}

export type StoredSecrets<Name extends string> = Record<Name, Buffer>;

const FILE_VERSION = 1;

/** A data directory like "memory://" holds no files: its secrets live as long as the process. */
function inMemory(dataDir: string): boolean {
  return /^[a-z]+:\/\//.test(dataDir);
}

function names<Name extends string>(spec: SecretsFileSpec<Name>): Name[] {
  return Object.keys(spec.secrets) as Name[];
}

/** Fresh random secrets of the sizes `spec` gives. */
export function generateSecrets<Name extends string>(spec: SecretsFileSpec<Name>): StoredSecrets<Name> {
  const secrets = {} as StoredSecrets<Name>;
  for (const name of names(spec)) secrets[name] = randomBytes(spec.secrets[name].bytes);
  return secrets;
}

function fileProblem(file: string, problem: string): ConfigError {
  return new ConfigError([{ variable: file, problem }]);
}

function fitsSize(length: number, size: SecretSize): boolean {
  return size.minBytes === undefined ? length === size.bytes : length >= size.minBytes;
}

function sizeProblem(name: string, size: SecretSize): string {
  return size.minBytes === undefined
    ? `"${name}" must be ${size.bytes} bytes of base64`
    : `"${name}" must be at least ${size.minBytes} bytes of base64`;
}

function parseSecrets<Name extends string>(
  spec: SecretsFileSpec<Name>,
  text: string,
  file: string,
): StoredSecrets<Name> {
  const expected = `{"version":${FILE_VERSION},${names(spec)
    .map((name) => `"${name}":…`)
    .join(",")}}`;
  const invalid = fileProblem(file, `is not a valid ${spec.description} file (expected ${expected})`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw invalid;
  const fields = parsed as Record<string, unknown>;
  if (fields.version !== FILE_VERSION || names(spec).some((name) => typeof fields[name] !== "string"))
    throw invalid;
  const secrets = {} as StoredSecrets<Name>;
  for (const name of names(spec)) {
    const size = spec.secrets[name];
    const bytes = decodeBase64(fields[name] as string);
    if (bytes === undefined || !fitsSize(bytes.length, size))
      throw fileProblem(file, sizeProblem(name, size));
    secrets[name] = bytes;
  }
  return secrets;
}

async function readSecrets<Name extends string>(
  spec: SecretsFileSpec<Name>,
  file: string,
): Promise<StoredSecrets<Name>> {
  const info = await stat(file);
  if (!info.isFile())
    throw fileProblem(file, `is not a regular file; it should hold the ${spec.description}`);
  // Someone loosened the mode: tighten it again rather than leave the secrets readable.
  if (process.platform !== "win32" && (info.mode & 0o077) !== 0) await chmod(file, 0o600);
  return parseSecrets(spec, await readFile(file, "utf8"), file);
}

/** ENOENT means "create it"; any other failure to read is the operator's to fix. */
async function readExisting<Name extends string>(
  spec: SecretsFileSpec<Name>,
  file: string,
): Promise<StoredSecrets<Name> | undefined> {
  try {
    return await readSecrets(spec, file);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw fileProblem(file, `cannot be read (${code ?? (error as Error).message})`);
  }
}

function fileBody<Name extends string>(spec: SecretsFileSpec<Name>, secrets: StoredSecrets<Name>): string {
  const fields: Record<string, unknown> = { version: FILE_VERSION };
  for (const name of names(spec)) fields[name] = secrets[name].toString("base64");
  return `${JSON.stringify(fields, null, 2)}\n`;
}

/**
 * Reads <dataDir>/<spec.fileName>, creating it with fresh random secrets on first use.
 * Creation is atomic and exclusive (written to a private temporary file, then hard-linked
 * into place), so two processes starting at once end up with the same secrets. For an
 * in-memory data directory ("memory://") the secrets are generated and never written. A
 * damaged or unreadable file is a ConfigError naming the file and what is wrong with it.
 */
export async function loadOrCreateSecretsFile<Name extends string>(
  dataDir: string,
  spec: SecretsFileSpec<Name>,
): Promise<StoredSecrets<Name>> {
  if (inMemory(dataDir)) return generateSecrets(spec);
  const file = path.join(dataDir, spec.fileName);
  const existing = await readExisting(spec, file);
  if (existing) return existing;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const secrets = generateSecrets(spec);
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(temporary, fileBody(spec, secrets), { mode: 0o600, flag: "wx" });
  try {
    await link(temporary, file);
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    // Another process created it first: use theirs.
    return readSecrets(spec, file);
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}
