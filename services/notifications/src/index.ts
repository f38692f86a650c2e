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
// The SSRF policy lives in @petri/service-kit (outbound-url); re-exported for existing hosts.
export { AddressAllowlist, type ResolvedAddress, type Resolver } from "@petri/service-kit";
export { type Mailer, type OutgoingMail, TableOnlyMailer } from "./mail/mailer.js";
export { type SmtpConfig, SmtpMailer } from "./mail/smtp-mailer.js";
// The schema history, for checks across services (expand-only steps between releases).
export { notificationsMigrations } from "./db/migrations/index.js";
