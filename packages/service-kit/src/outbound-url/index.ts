/**
 * Outbound URLs (webhooks): the SSRF policy (which addresses and URLs a service may connect
 * to), the registration-time check that resolves a URL's host, and the test allowlist's
 * configuration. The policy modules are pure; check-addresses.ts and system-resolver.ts do DNS.
 * The SSRF corpus for tests is in `@petri/fixtures/service-kit`.
 */
export {
  AddressAllowlist,
  type AddressVerdict,
  type RefusedAddressCategory,
  checkAddress,
  refusedCategory,
} from "./address-policy.js";
export {
  type Cidr,
  type IpAddress,
  type IpFamily,
  cidr,
  cidrContains,
  formatIpAddress,
  parseCidr,
  parseIpAddress,
} from "./ip-address.js";
export {
  type ResolutionVerdict,
  type ResolvedAddress,
  type Resolver,
  checkResolution,
} from "./resolution.js";
export {
  type UrlRefusal,
  type UrlRefusalReason,
  WEBHOOK_URL_MAX_LENGTH,
  type WebhookTarget,
  checkWebhookUrl,
} from "./url-policy.js";
export { WEBHOOK_DNS_TIMEOUT_MS, createSystemResolver } from "./system-resolver.js";
export {
  type WebhookUrlAddressCheck,
  type WebhookUrlAddressCheckOptions,
  checkWebhookUrlAddresses,
} from "./check-addresses.js";
export {
  TEST_ONLY_SETTING_PROBLEM,
  addressAllowlistSchema,
  refuseTestAllowlistInProduction,
  webhookTestAllowlistConfigSchema,
  webhookTestAllowlistFromConfig,
  webhookTestAllowlistVariables,
} from "./allowlist-config.js";
