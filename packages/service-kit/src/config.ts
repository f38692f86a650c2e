/**
 * Configuration comes from the environment only (no per-environment files; overlays set
 * env). Each service declares a zod schema, parses once at boot and fails fast with a
 * message an operator can act on: every bad variable at once, never a secret's value.
 */
import { z } from "zod";
import { LOG_FORMATS } from "./logger.js";

/**
 * Variables whose names contain these words are never echoed back in error messages.
 * KEK (key-encryption key) and PEPPER do not contain "KEY" but are secrets all the same.
 */
const SECRET_NAME = /SECRET|PASSWORD|KEY|TOKEN|KEK|PEPPER/i;

export function isSecretVariableName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export interface ConfigProblem {
  variable: string;
  problem: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    const lines = problems.map((p) => `  - ${p.variable}: ${p.problem}`);
    const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
    super(`Invalid configuration (${count}):\n${lines.join("\n")}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

function describe(issue: z.core.$ZodIssue, env: Env): ConfigProblem {
  const variable = issue.path.length > 0 ? issue.path.map(String).join(".") : "(configuration)";
  const name = String(issue.path[0] ?? "");
  const raw = name ? env[name] : undefined;
  if (name && raw === undefined) return { variable, problem: "is required but not set" };
  let problem = issue.message;
  if (raw !== undefined && isSecretVariableName(name)) {
    // A custom refinement could quote its input; make sure a secret never reaches stderr.
    if (raw.length > 0) problem = problem.split(raw).join("[redacted]");
  } else if (raw !== undefined && name) {
    // A connection URL may carry a password (postgres://user:password@host): never echo it.
    const shown = raw.replace(/(\/\/[^/@:\s]*):[^/@\s]*@/, "$1:[redacted]@");
    problem += ` (got ${JSON.stringify(shown.length > 80 ? `${shown.slice(0, 77)}...` : shown)})`;
  }
  return { variable, problem };
}

/**
 * Parses `env` with `schema`. Empty strings count as unset, so `FOO=` in a manifest falls
 * back to the default instead of failing as an invalid value.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: Env = process.env): z.output<S> {
  const cleaned: Env = {};
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && value !== "") cleaned[name] = value;
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map((issue) => describe(issue, cleaned)));
}

export interface ExitIo {
  writeError(text: string): void;
  exit(code: number): void;
}

const processIo: ExitIo = {
  writeError: (text) => process.stderr.write(text),
  exit: (code) => process.exit(code),
};

/**
 * For main.ts: run `fn` (typically the loadConfig call, or the whole async main); on a
 * ConfigError print its message to stderr and exit 1 (no stack: the message is the help).
 * Other errors propagate unchanged.
 */
export function exitOnConfigError<T>(fn: () => T, io: ExitIo = processIo): T {
  const handle = (error: unknown): never => {
    if (error instanceof ConfigError) {
      io.writeError(`${error.message}\n`);
      io.exit(1);
    }
    throw error;
  };
  try {
    const result = fn();
    if (result instanceof Promise) return result.catch(handle) as T;
    return result;
  } catch (error) {
    return handle(error);
  }
}

/** A TCP port as an env string: 0..65535 (0 asks the OS for a free port, used by tests). */
export const portSchema = z
  .string()
  .trim()
  .regex(/^\d{1,5}$/, "must be a whole number between 0 and 65535")
  .transform(Number)
  .pipe(z.number().int().max(65535, "must be a whole number between 0 and 65535"));

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export const logLevelSchema = z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` });
/** LOG_FORMAT: "json" (default) or "pretty" (for a person at a terminal). */
export const logFormatSchema = z.enum(LOG_FORMATS, { error: `must be one of ${LOG_FORMATS.join(", ")}` });

/** A positive whole number of milliseconds from an env string. */
export const millisecondsSchema = z
  .string()
  .trim()
  .regex(/^\d+$/, "must be a whole number of milliseconds")
  .transform(Number)
  .pipe(z.number().int().positive("must be greater than 0"));

const urlWithScheme = (schemes: readonly string[]) =>
  z
    .string()
    .trim()
    .refine(
      (value) => {
        try {
          return schemes.includes(new URL(value).protocol.replace(/:$/, ""));
        } catch {
          return false;
        }
      },
      `must be a URL starting with ${schemes.map((s) => `${s}://`).join(" or ")}`,
    );

export const postgresUrlSchema = urlWithScheme(["postgres", "postgresql"]);
export const natsUrlSchema = z
  .string()
  .trim()
  // NATS accepts a comma-separated list of servers.
  .refine(
    (value) =>
      value.split(",").every((server) => {
        try {
          return ["nats:", "tls:", "ws:", "wss:"].includes(new URL(server.trim()).protocol);
        } catch {
          return false;
        }
      }),
    "must be one or more nats:// URLs separated by commas",
  );

/** A PEM public key (one or more blocks), a JWK or a JWKS, as accepted by InternalTokenVerifier. */
export const publicKeySchema = z
  .string()
  .trim()
  .transform((value) => value.replace(/\\n/g, "\n"))
  .refine((value) => {
    if (value.includes("-----BEGIN PUBLIC KEY-----")) return true;
    try {
      const parsed = JSON.parse(value) as { kty?: unknown; keys?: unknown };
      return typeof parsed.kty === "string" || Array.isArray(parsed.keys);
    } catch {
      return false;
    }
  }, "must be a PEM public key (-----BEGIN PUBLIC KEY-----) or a JWK/JWKS as JSON");

export interface BaseServiceConfigOptions {
  /** The service's own default port (each service has one, so local runs do not clash). */
  defaultPort: number;
  /**
   * "cluster" (default): the service runs as its own process and needs DATABASE_URL,
   * NATS_URL and the gateway's public key. "standalone": the host provides those bindings
   * in-process, so they are optional.
   */
  mode?: "cluster" | "standalone";
}

function commonVariables(defaultPort: number) {
  return {
    PORT: portSchema.default(defaultPort),
    // Loopback unless told otherwise; containers set HOST=0.0.0.0.
    HOST: z.string().trim().min(1).default("127.0.0.1"),
    LOG_LEVEL: logLevelSchema.default("info"),
    LOG_FORMAT: logFormatSchema.default("json"),
    // Below Kubernetes' default 30 s terminationGracePeriodSeconds, so we exit on our own.
    SHUTDOWN_TIMEOUT_MS: millisecondsSchema.default(25_000),
  };
}

function clusterServiceConfigSchema(defaultPort: number) {
  return z.object({
    ...commonVariables(defaultPort),
    DATABASE_URL: postgresUrlSchema,
    NATS_URL: natsUrlSchema,
    PETRI_INTERNAL_JWT_PUBLIC_KEY: publicKeySchema,
  });
}

function standaloneServiceConfigSchema(defaultPort: number) {
  return z.object({
    ...commonVariables(defaultPort),
    DATABASE_URL: postgresUrlSchema.optional(),
    NATS_URL: natsUrlSchema.optional(),
    PETRI_INTERNAL_JWT_PUBLIC_KEY: publicKeySchema.optional(),
  });
}

/**
 * The variables every service's process reads: PORT, HOST, LOG_LEVEL, LOG_FORMAT, DATABASE_URL,
 * NATS_URL, PETRI_INTERNAL_JWT_PUBLIC_KEY, SHUTDOWN_TIMEOUT_MS. Services extend it:
 *   const schema = baseServiceConfigSchema({ defaultPort: 7101 }).extend({ DB_SCHEMA: z.string().default("identity") });
 */
export function baseServiceConfigSchema(
  options: BaseServiceConfigOptions & { mode?: "cluster" },
): ReturnType<typeof clusterServiceConfigSchema>;
export function baseServiceConfigSchema(
  options: BaseServiceConfigOptions & { mode: "standalone" },
): ReturnType<typeof standaloneServiceConfigSchema>;
export function baseServiceConfigSchema(options: BaseServiceConfigOptions) {
  return (options.mode ?? "cluster") === "cluster"
    ? clusterServiceConfigSchema(options.defaultPort)
    : standaloneServiceConfigSchema(options.defaultPort);
}

export type BaseServiceConfig = z.output<ReturnType<typeof clusterServiceConfigSchema>>;
