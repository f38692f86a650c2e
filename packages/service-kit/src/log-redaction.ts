/**
 * What a log line may carry: every value handed to the logger passes through
 * `sanitizeLogValue` first (see logger.ts), so a secret is caught by the field that holds it
 * (`password`, `authorization`, ...) or by its shape (an argon2 hash, a JWT, a Petri API key,
 * a webhook signing secret, a `Bearer` credential), wherever it sits: nested objects, arrays,
 * error messages, stacks and causes.
 *
 * Database errors are reduced to the fields that describe the failure (SQLSTATE, constraint,
 * table, ...). Both drivers attach the statement's data to their errors: PGlite the bound
 * parameters (`params`), PostgreSQL the offending values (`detail`: "Key (email)=(...)",
 * `where`: "... parameter $1 = '...'"); a registration that fails in the database would
 * otherwise log the e-mail and the password hash.
 *
 * Cost: a string is tested against one literal-alternation regex and only a string that
 * contains a marker is scanned further; scans use character classes that cannot overlap,
 * so no input makes them backtrack. Objects are copied (callers' objects are never mutated)
 * down to MAX_LOG_DEPTH.
 */

export const REDACTED = "[redacted]";

/** Deeper values are replaced by a marker rather than walked (or written) unchecked. */
export const MAX_LOG_DEPTH = 8;

/**
 * Field names whose values never reach a log line, compared lower-cased without "-" and "_",
 * so `apiKey`, `api_key` and `x-api-key` are one rule. A name ending in "password", "secret"
 * or "token" is covered too (`new_password`, `client_secret`, `refresh_token`).
 */
export const REDACTED_LOG_FIELDS = [
  "authorization",
  "proxyauthorization",
  "cookie",
  "setcookie",
  "apikey",
  "xapikey",
  "xpetriprincipal",
  "passwordhash",
  "secrethash",
  "privatekey",
  "pepper",
  "apikeypepper",
  "kek",
] as const;

const REDACTED_FIELD_SET: ReadonlySet<string> = new Set(REDACTED_LOG_FIELDS);
const REDACTED_FIELD_SUFFIXES = ["password", "secret", "token"] as const;

export function isSensitiveLogField(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[-_]/g, "");
  if (REDACTED_FIELD_SET.has(normalized)) return true;
  return REDACTED_FIELD_SUFFIXES.some((suffix) => normalized.endsWith(suffix));
}

/**
 * A string is scanned only when it holds one of these markers: the PHC prefix of an argon2
 * hash, the base64url of `{"` that starts a JWT's header, the API key prefix
 * (gateway/src/lib/api-key-format.ts), the webhook signing secret prefix
 * (services/notifications/src/domain/signing.ts), and the Bearer scheme.
 */
const MARKER = /\$argon2|eyJ|petri_sk_|whsec_|bearer/i;

/**
 * Runs of characters a credential is made of (base64, base64url, PHC `$`/`,`/`=`, JWT dots).
 * A run that contains a marker is replaced whole: `key=petri_sk_...` loses its `key=` too,
 * which is the safe direction.
 */
const CREDENTIAL_RUN = /[\w.+/=$,-]+/g;
/** "Bearer <credential>" in any case; the credential is whatever follows up to a separator. */
const BEARER_CREDENTIAL = /\b(bearer)\s+[^\s"'\\,;]+/gi;

function runIsSecret(run: string): boolean {
  return (
    run.includes("$argon2") ||
    run.includes("petri_sk_") ||
    run.includes("whsec_") ||
    // A JWS in compact form: base64url(JSON header) "." base64url(JSON payload) "." signature.
    (run.includes("eyJ") && run.includes(".eyJ"))
  );
}

/** Whether `text` may hold a credential (cheap: one literal-alternation test). */
export function mayContainSecret(text: string): boolean {
  return MARKER.test(text);
}

/** `text` with every credential-shaped part replaced by "[redacted]". */
export function redactSecretsInText(text: string): string {
  if (!MARKER.test(text)) return text;
  return text
    .replace(BEARER_CREDENTIAL, (_match, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(CREDENTIAL_RUN, (run) => (runIsSecret(run) ? REDACTED : run));
}

/**
 * An error raised by the PostgreSQL server (node-postgres' DatabaseError or PGlite's): it has
 * a severity and a five-character SQLSTATE.
 */
export function isDatabaseServerError(error: Error): boolean {
  const fields = error as Error & { severity?: unknown; code?: unknown };
  return (
    typeof fields.severity === "string" &&
    typeof fields.code === "string" &&
    /^[0-9A-Z]{5}$/.test(fields.code)
  );
}

/**
 * The fields of a database error that describe the failure without the statement's data.
 * Left out: `params` and `queryOptions` (PGlite: the bound values), `detail` and `where`
 * (values of the failing row or parameter), `query` and `internalQuery` (PGlite carries the
 * SQL, pg does not: the same line in both modes, and no literal that a raw fragment inlined),
 * `hint`, `file` and `line`.
 */
const DATABASE_ERROR_FIELDS: ReadonlySet<string> = new Set([
  "code",
  "severity",
  "constraint",
  "schema",
  "table",
  "column",
  "dataType",
  "routine",
]);

/**
 * Data exceptions (SQLSTATE class 22) quote the rejected input in the message
 * (`invalid input syntax for type integer: "..."`); other classes quote identifiers only.
 */
function databaseErrorMessage(error: Error): string {
  const code = (error as Error & { code: string }).code;
  return code.startsWith("22") ? error.message.replace(/"[^"]*"/g, `"${REDACTED}"`) : error.message;
}

export type LogValue = unknown;

/**
 * The last check on a finished JSON log line, for anything that reaches the line without
 * passing the logMethod hook (what pino or a mixin adds itself): a line that holds a marker is
 * parsed, sanitised and written again; a line that cannot be parsed is replaced. After the
 * hook has run this is rare, so the common line costs one regex test.
 */
export function sanitizeLogLine(line: string): string {
  if (!MARKER.test(line)) return line;
  try {
    return `${JSON.stringify(sanitizeLogValue(JSON.parse(line)))}\n`;
  } catch {
    return `${JSON.stringify({ level: "error", msg: "a log line that could not be checked was dropped" })}\n`;
  }
}

/**
 * A copy of `value` that is safe to write to a log: sensitive fields redacted, secrets
 * redacted by shape in every string, errors serialised (type, message, stack, their own
 * fields, cause), database errors reduced to DATABASE_ERROR_FIELDS.
 */
export function sanitizeLogValue(value: unknown): LogValue {
  return walk(value, 0, new Set());
}

/** An error as a log line shows it (the shape pino's `err` serializer produces). */
export function sanitizeLogError(error: Error): Record<string, LogValue> {
  return serializeError(error, 0, new Set());
}

function walk(value: unknown, depth: number, ancestors: Set<object>): LogValue {
  if (typeof value === "string") return redactSecretsInText(value);
  if (typeof value !== "object" || value === null) return value;
  if (ancestors.has(value)) return "[circular]";
  if (depth >= MAX_LOG_DEPTH) return "[depth limit]";
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[binary ${value.byteLength} bytes]`;
  ancestors.add(value);
  try {
    if (value instanceof Error) return serializeError(value, depth, ancestors);
    if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1, ancestors));
    const withToJSON = value as { toJSON?: unknown };
    if (typeof withToJSON.toJSON === "function") {
      // Dates and the like: what JSON.stringify would write, checked like any other value.
      return walk((withToJSON.toJSON as () => unknown).call(value), depth + 1, ancestors);
    }
    const copy: Record<string, LogValue> = {};
    for (const key of Object.keys(value)) {
      copy[key] = isSensitiveLogField(key)
        ? REDACTED
        : walk((value as Record<string, unknown>)[key], depth + 1, ancestors);
    }
    return copy;
  } finally {
    ancestors.delete(value);
  }
}

function serializeError(error: Error, depth: number, ancestors: Set<object>): Record<string, LogValue> {
  ancestors.add(error);
  const database = isDatabaseServerError(error);
  const message = database ? databaseErrorMessage(error) : String(error.message);
  const out: Record<string, LogValue> = {
    // PGlite's error class has a minified name ("O"); one name for both engines greps better.
    type: database
      ? "DatabaseError"
      : typeof error.constructor === "function"
        ? error.constructor.name
        : error.name,
    message: redactSecretsInText(message),
  };
  if (typeof error.stack === "string") {
    const stack = database ? error.stack.replace(error.message, message) : error.stack;
    out.stack = redactSecretsInText(stack);
  }
  for (const key of Object.keys(error)) {
    if (key in out) continue;
    if (database && !DATABASE_ERROR_FIELDS.has(key)) continue;
    const field = (error as unknown as Record<string, unknown>)[key];
    if (field === undefined || typeof field === "function") continue;
    out[key] = isSensitiveLogField(key) ? REDACTED : walk(field, depth + 1, ancestors);
  }
  // `cause` and AggregateError's `errors` are own but not enumerable.
  if (error.cause !== undefined && !("cause" in out)) out.cause = walk(error.cause, depth + 1, ancestors);
  if (error instanceof AggregateError && !("errors" in out))
    out.errors = walk(error.errors, depth + 1, ancestors);
  return out;
}
