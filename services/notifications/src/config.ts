/**
 * Notifications' configuration (env), parsed once at boot with readable errors that never
 * echo a secret (service-kit redacts variables named like KEY, KEK, PASSWORD, SECRET).
 *
 *   PETRI_NOTIFICATIONS_KEK       32 random bytes, base64: seals webhook signing secrets at rest
 *                                 (required in cluster mode; standalone keeps one in
 *                                 <data dir>/notifications-secrets.json when it is unset)
 *   PETRI_SMTP_HOST               SMTP server; unset: mail is kept in the sent_mail table only
 *   PETRI_SMTP_PORT               default 587
 *   PETRI_SMTP_SECURE             "true": TLS from the first byte (port 465); default "false" (STARTTLS)
 *   PETRI_SMTP_USER / PETRI_SMTP_PASSWORD   optional authentication
 *   PETRI_MAIL_FROM               From header, default "Petri <no-reply@petri.invalid>"
 *   PETRI_WEBHOOK_TEST_ALLOWLIST  TESTS ONLY: CIDR blocks webhooks may reach despite the SSRF
 *                                 policy (e.g. "127.0.0.1/32"); empty by default, and refused
 *                                 when NODE_ENV is "production"
 *   PETRI_WEBHOOK_TEST_CA_FILE    TESTS ONLY: a PEM file of a CA trusted for webhook receivers in
 *                                 addition to the system roots (a loopback receiver's self-signed
 *                                 certificate); refused when NODE_ENV is "production"
 *
 * Generate a KEK with `openssl rand -base64 32`.
 */
import { readFileSync } from "node:fs";
import { rootCertificates } from "node:tls";
import {
  KEK_BYTES,
  TEST_ONLY_SETTING_PROBLEM,
  type AddressAllowlist,
  baseServiceConfigSchema,
  decodeBase64,
  portSchema,
  refuseTestAllowlistInProduction,
  webhookTestAllowlistFromConfig,
  webhookTestAllowlistVariables,
} from "@petri/service-kit";
import { z } from "zod";
import { type SmtpConfig, SmtpMailer } from "./mail/smtp-mailer.js";
import type { NotificationsServiceOptions } from "./service.js";

export const NOTIFICATIONS_DEFAULT_PORT = 7107;
export const DEFAULT_MAIL_FROM = "Petri <no-reply@petri.invalid>";

const kekSchema = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const bytes = decodeBase64(value);
    if (!bytes || bytes.length !== KEK_BYTES) {
      ctx.addIssue({
        code: "custom",
        message: `must be exactly ${KEK_BYTES} bytes, base64-encoded (e.g. \`openssl rand -base64 ${KEK_BYTES}\`)${
          bytes ? ` (decodes to ${bytes.length} bytes)` : " (not valid base64)"
        }`,
      });
      return z.NEVER;
    }
    return bytes;
  });

const booleanSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(["true", "false"], { error: 'must be "true" or "false"' }))
  .transform((value) => value === "true");

const variables = {
  // NODE_ENV and PETRI_WEBHOOK_TEST_ALLOWLIST: one schema with experiments (service-kit).
  ...webhookTestAllowlistVariables,
  PETRI_SMTP_HOST: z.string().trim().min(1).optional(),
  PETRI_SMTP_PORT: portSchema.default(587),
  PETRI_SMTP_SECURE: booleanSchema.default(false),
  PETRI_SMTP_USER: z.string().optional(),
  PETRI_SMTP_PASSWORD: z.string().optional(),
  PETRI_MAIL_FROM: z
    .string()
    .trim()
    .refine((from) => /@[^@\s>]+>?$/.test(from), "must be an address, e.g. Petri <no-reply@example.org>")
    .default(DEFAULT_MAIL_FROM),
  PETRI_WEBHOOK_TEST_CA_FILE: z
    .string()
    .trim()
    .min(1)
    .transform((file, ctx) => {
      try {
        const pem = readFileSync(file, "utf8");
        if (!pem.includes("-----BEGIN CERTIFICATE-----")) throw new Error("no PEM certificate in it");
        return pem;
      } catch (error) {
        ctx.addIssue({ code: "custom", message: `must be a readable PEM file: ${(error as Error).message}` });
        return z.NEVER;
      }
    })
    .optional(),
};

/** A test allowlist or CA in a production deployment is a mistake worth refusing to start over. */
function noAllowlistInProduction(
  config: {
    NODE_ENV?: string | undefined;
    PETRI_WEBHOOK_TEST_ALLOWLIST?: AddressAllowlist | undefined;
    PETRI_WEBHOOK_TEST_CA_FILE?: string | undefined;
  },
  ctx: z.RefinementCtx,
) {
  if (config.NODE_ENV === "production" && config.PETRI_WEBHOOK_TEST_CA_FILE !== undefined)
    ctx.addIssue({
      code: "custom",
      path: ["PETRI_WEBHOOK_TEST_CA_FILE"],
      message: TEST_ONLY_SETTING_PROBLEM,
    });
  refuseTestAllowlistInProduction(config, ctx);
}

/** Cluster mode: the base service variables plus notifications'; the KEK is required. */
export function notificationsConfigSchema() {
  return baseServiceConfigSchema({ defaultPort: NOTIFICATIONS_DEFAULT_PORT })
    .extend({ PETRI_NOTIFICATIONS_KEK: kekSchema, ...variables })
    .superRefine(noAllowlistInProduction);
}

export type NotificationsConfig = z.output<ReturnType<typeof notificationsConfigSchema>>;

/** Standalone mode: notifications' variables only; without a KEK the data directory keeps one. */
export function standaloneNotificationsConfigSchema() {
  return z
    .object({ PETRI_NOTIFICATIONS_KEK: kekSchema.optional(), ...variables })
    .superRefine(noAllowlistInProduction);
}

export type StandaloneNotificationsConfig = z.output<ReturnType<typeof standaloneNotificationsConfigSchema>>;

function smtpConfig(config: StandaloneNotificationsConfig): SmtpConfig | undefined {
  if (!config.PETRI_SMTP_HOST) return undefined;
  return {
    host: config.PETRI_SMTP_HOST,
    port: config.PETRI_SMTP_PORT,
    secure: config.PETRI_SMTP_SECURE,
    user: config.PETRI_SMTP_USER,
    password: config.PETRI_SMTP_PASSWORD,
    from: config.PETRI_MAIL_FROM,
  };
}

/** Service options from a parsed configuration (either mode). */
export function notificationsOptionsFromConfig(
  config: StandaloneNotificationsConfig,
  dataDir?: string,
): NotificationsServiceOptions {
  const smtp = smtpConfig(config);
  return {
    ...(config.PETRI_NOTIFICATIONS_KEK ? { kek: config.PETRI_NOTIFICATIONS_KEK } : {}),
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(smtp ? { mailer: new SmtpMailer(smtp) } : {}),
    webhookTestAllowlist: webhookTestAllowlistFromConfig(config),
    ...(config.PETRI_WEBHOOK_TEST_CA_FILE
      ? { webhookCa: [...rootCertificates, config.PETRI_WEBHOOK_TEST_CA_FILE] }
      : {}),
  };
}
