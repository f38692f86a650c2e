export {
  type NotificationsHostedService,
  type NotificationsServiceOptions,
  createNotificationsService,
} from "./service.js";
export {
  DEFAULT_MAIL_FROM,
  NOTIFICATIONS_DEFAULT_PORT,
  type NotificationsConfig,
  type StandaloneNotificationsConfig,
  notificationsConfigSchema,
  notificationsOptionsFromConfig,
  standaloneNotificationsConfigSchema,
} from "./config.js";
export { NOTIFICATIONS_SECRETS_FILE, loadOrCreateNotificationsKek } from "./security/secrets-file.js";
export { AddressAllowlist } from "./domain/ssrf/address-policy.js";
export type { ResolvedAddress, Resolver } from "./domain/ssrf/resolution.js";
export { type Mailer, type OutgoingMail, TableOnlyMailer } from "./mail/mailer.js";
export { type SmtpConfig, SmtpMailer } from "./mail/smtp-mailer.js";
