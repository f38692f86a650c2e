/**
 * The registration-time check of a webhook URL, for a service that stores one: the static
 * rules (url-policy.ts), then the hostname resolved with the injected resolver and every
 * answer checked (resolution.ts). The only I/O of this module. Delivery repeats the address
 * check at connect time, so this check is about refusing early and clearly, not the last line.
 */
import type { AddressAllowlist, RefusedAddressCategory } from "./address-policy.js";
import { type Resolver, checkResolution } from "./resolution.js";
import { WEBHOOK_DNS_TIMEOUT_MS, createSystemResolver, withDnsTimeout } from "./system-resolver.js";
import { type UrlRefusalReason, type WebhookTarget, checkWebhookUrl } from "./url-policy.js";

export type WebhookUrlAddressCheck =
  /** Allowed: a public IP literal, or a name whose every answer is allowed. */
  | { outcome: "ok"; target: WebhookTarget }
  /**
   * Refused by a text rule or for an answer that is not allowed. `message` is safe to show;
   * `category` (which address rule refused it) is for logs only, and no resolved address is
   * ever named.
   */
  | {
      outcome: "refused";
      reason: UrlRefusalReason;
      message: string;
      category?: RefusedAddressCategory | undefined;
    }
  /**
   * The text rules pass but the name did not resolve (a DNS failure, no address, or no answer
   * within the timeout): nothing is known to be wrong with it yet.
   */
  | { outcome: "unresolved"; target: WebhookTarget; message: string };

export interface WebhookUrlAddressCheckOptions {
  /** How hostnames resolve (default: the operating system's resolver). */
  resolver?: Resolver | undefined;
  /** TESTS ONLY: addresses let through despite the policy (production: AddressAllowlist.empty). */
  allowlist: AddressAllowlist;
  /** A lookup that has not answered by then counts as unresolved (default 3 s). */
  timeoutMs?: number | undefined;
}

const defaultResolver = createSystemResolver(WEBHOOK_DNS_TIMEOUT_MS);

export async function checkWebhookUrlAddresses(
  url: string,
  options: WebhookUrlAddressCheckOptions,
): Promise<WebhookUrlAddressCheck> {
  const target = checkWebhookUrl(url, options.allowlist);
  if (!target.ok)
    return {
      outcome: "refused",
      reason: target.reason,
      message: target.message,
      ...(target.category ? { category: target.category } : {}),
    };
  if (target.literal) return { outcome: "ok", target };

  const resolver = options.resolver ?? defaultResolver;
  let answers;
  try {
    answers = await withDnsTimeout(
      // A resolver that throws synchronously is a failed lookup too.
      Promise.resolve().then(() => resolver(target.hostname)),
      target.hostname,
      options.timeoutMs ?? WEBHOOK_DNS_TIMEOUT_MS,
    );
  } catch {
    return { outcome: "unresolved", target, message: "the URL's host name does not resolve (yet)" };
  }
  const verdict = checkResolution(answers, options.allowlist);
  if (verdict.allowed) return { outcome: "ok", target };
  if (verdict.category === "no_addresses")
    return { outcome: "unresolved", target, message: "the URL's host name has no address (yet)" };
  return {
    outcome: "refused",
    reason: "address_not_allowed",
    message: "the URL's host name resolves to an address that is not publicly routable",
    category: verdict.category,
  };
}
