/**
 * Identity's configuration (env), parsed once at boot with readable errors that never echo
 * a secret (service-kit redacts variables named like KEY, KEK, PEPPER, PASSWORD, SECRET).
 *
 *   PETRI_IDENTITY_KEK        32 random bytes, base64: encrypts signing keys at rest (required in cluster mode)
 *   PETRI_API_KEY_PEPPER      >= 32 random bytes, base64: HMAC key of stored API key hashes (required in cluster mode)
 *   ACCESS_TOKEN_TTL_SECONDS  access-token lifetime, 60..86400, default 3600
 *   PETRI_STAFF_EMAIL         with PETRI_STAFF_PASSWORD: staff account created or reset at start-up
 *   PETRI_STAFF_PASSWORD      10..128 characters
 *
 * Generate a secret with `openssl rand -base64 32`.
 */
import { KEK_BYTES, baseServiceConfigSchema, decodeBase64 } from "@petri/service-kit";
import { z } from "zod";
import {
  EMAIL_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  normalizeEmail,
} from "./domain/registration.js";
import { API_KEY_PEPPER_MIN_BYTES } from "./security/api-keys.js";
import { type IdentitySecrets, loadOrCreateIdentitySecrets } from "./security/secrets-file.js";
import {
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  type IdentityServiceOptions,
  MAX_ACCESS_TOKEN_TTL_SECONDS,
  MIN_ACCESS_TOKEN_TTL_SECONDS,
} from "./service.js";

export const IDENTITY_DEFAULT_PORT = 7101;

/** base64 -> bytes, with a message that names the expectation and never quotes the value. */
function base64Bytes(minBytes: number, maxBytes: number) {
  const expected = minBytes === maxBytes ? `exactly ${minBytes} bytes` : `at least ${minBytes} bytes`;
  return z
    .string()
    .trim()
    .transform((value, ctx) => {
      const bytes = decodeBase64(value);
      if (!bytes || bytes.length < minBytes || bytes.length > maxBytes) {
        ctx.addIssue({
          code: "custom",
          message: `must be ${expected}, base64-encoded (e.g. \`openssl rand -base64 ${minBytes}\`)${
            bytes ? ` (decodes to ${bytes.length} bytes)` : " (not valid base64)"
          }`,
        });
        return z.NEVER;
      }
      return bytes;
    });
}

const kekSchema = base64Bytes(KEK_BYTES, KEK_BYTES);
const pepperSchema = base64Bytes(API_KEY_PEPPER_MIN_BYTES, 1024);

const ttlSchema = z
  .string()
  .trim()
  .regex(/^\d+$/, "must be a whole number of seconds")
  .transform(Number)
  .pipe(
    z
      .number()
      .int()
      .min(MIN_ACCESS_TOKEN_TTL_SECONDS, `must be at least ${MIN_ACCESS_TOKEN_TTL_SECONDS} seconds`)
      .max(MAX_ACCESS_TOKEN_TTL_SECONDS, `must be at most ${MAX_ACCESS_TOKEN_TTL_SECONDS} seconds (one day)`),
  );

const staffEmailSchema = z
  .string()
  .trim()
  .transform(normalizeEmail)
  .refine(
    (email) => email.length <= EMAIL_MAX_LENGTH && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email),
    "must be an e-mail address",
  );
const staffPasswordSchema = z
  .string()
  .refine(
    (password) => [...password].length >= PASSWORD_MIN_LENGTH && [...password].length <= PASSWORD_MAX_LENGTH,
    `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
  );

const optionalVariables = {
  ACCESS_TOKEN_TTL_SECONDS: ttlSchema.default(DEFAULT_ACCESS_TOKEN_TTL_SECONDS),
  PETRI_STAFF_EMAIL: staffEmailSchema.optional(),
  PETRI_STAFF_PASSWORD: staffPasswordSchema.optional(),
};

/** Both staff variables or neither: half a bootstrap is a mistake worth failing on. */
function staffPair(
  config: { PETRI_STAFF_EMAIL?: string | undefined; PETRI_STAFF_PASSWORD?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (config.PETRI_STAFF_EMAIL !== undefined && config.PETRI_STAFF_PASSWORD === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["PETRI_STAFF_PASSWORD"],
      message: "is required with PETRI_STAFF_EMAIL",
    });
  if (config.PETRI_STAFF_PASSWORD !== undefined && config.PETRI_STAFF_EMAIL === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["PETRI_STAFF_EMAIL"],
      message: "is required with PETRI_STAFF_PASSWORD",
    });
}

/** Cluster mode: the base service variables plus identity's; KEK and pepper required. */
export function identityConfigSchema() {
  return baseServiceConfigSchema({ defaultPort: IDENTITY_DEFAULT_PORT })
    .extend({ PETRI_IDENTITY_KEK: kekSchema, PETRI_API_KEY_PEPPER: pepperSchema, ...optionalVariables })
    .superRefine(staffPair);
}

export type IdentityConfig = z.output<ReturnType<typeof identityConfigSchema>>;

/** Standalone mode: identity's variables only; KEK and pepper optional (the secrets file supplies them). */
export function standaloneIdentityConfigSchema() {
  return z
    .object({
      PETRI_IDENTITY_KEK: kekSchema.optional(),
      PETRI_API_KEY_PEPPER: pepperSchema.optional(),
      ...optionalVariables,
    })
    .superRefine(staffPair);
}

export type StandaloneIdentityConfig = z.output<ReturnType<typeof standaloneIdentityConfigSchema>>;

function optionsFrom(
  config: Pick<IdentityConfig, "ACCESS_TOKEN_TTL_SECONDS" | "PETRI_STAFF_EMAIL" | "PETRI_STAFF_PASSWORD">,
  secrets: IdentitySecrets,
): IdentityServiceOptions {
  return {
    kek: secrets.kek,
    apiKeyPepper: secrets.apiKeyPepper,
    accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
    staff:
      config.PETRI_STAFF_EMAIL !== undefined && config.PETRI_STAFF_PASSWORD !== undefined
        ? { email: config.PETRI_STAFF_EMAIL, password: config.PETRI_STAFF_PASSWORD }
        : undefined,
  };
}

/** The options createIdentityService takes, from a parsed cluster configuration. */
export function identityOptionsFromConfig(config: IdentityConfig): IdentityServiceOptions {
  return optionsFrom(config, { kek: config.PETRI_IDENTITY_KEK, apiKeyPepper: config.PETRI_API_KEY_PEPPER });
}

/**
 * For the standalone host: identity's options from a parsed standalone configuration
 * (`loadConfig(standaloneIdentityConfigSchema())`) and the data directory. KEK and pepper
 * come from the environment when set, else from <dataDir>/identity-secrets.json (created on
 * first use; generated in memory for "memory://").
 */
export async function standaloneIdentityOptions(
  config: StandaloneIdentityConfig,
  dataDir: string,
): Promise<IdentityServiceOptions> {
  const needFile = config.PETRI_IDENTITY_KEK === undefined || config.PETRI_API_KEY_PEPPER === undefined;
  const stored = needFile ? await loadOrCreateIdentitySecrets(dataDir) : undefined;
  return optionsFrom(config, {
    kek: config.PETRI_IDENTITY_KEK ?? stored!.kek,
    apiKeyPepper: config.PETRI_API_KEY_PEPPER ?? stored!.apiKeyPepper,
  });
}
