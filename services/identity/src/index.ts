export {
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  type IdentityHostedService,
  type IdentityServiceOptions,
  createIdentityService,
} from "./service.js";
export {
  IDENTITY_DEFAULT_PORT,
  type IdentityConfig,
  type StandaloneIdentityConfig,
  identityConfigSchema,
  identityOptionsFromConfig,
  standaloneIdentityConfigSchema,
  standaloneIdentityOptions,
} from "./config.js";
export {
  IDENTITY_SECRETS_FILE,
  type IdentitySecrets,
  generateIdentitySecrets,
  loadOrCreateIdentitySecrets,
} from "./security/secrets-file.js";
export type { StaffCredentials } from "./app/bootstrap-staff.js";
// The schema history, for checks across services (expand-only steps between releases).
export { identityMigrations } from "./db/migrations/index.js";
