/**
 * The registration-time check of a webhook URL: the static rules (url-policy.ts), then the
 * hostname resolved and every answer checked (resolution.ts). Used by ValidateWebhookUrl
 * (the gateway's check when a request names a URL) and by TestWebhook; delivery attempts
 * repeat the address check at connect time.
 */
import type { Logger } from "@petri/service-kit";
import { InvalidWebhookUrlError } from "../domain/errors.js";
import type { AddressAllowlist } from "../domain/ssrf/address-policy.js";
import { type Resolver, checkResolution } from "../domain/ssrf/resolution.js";
import { type WebhookTarget, checkWebhookUrl } from "../domain/ssrf/url-policy.js";

export function makeCheckWebhookUrl(deps: {
  resolver: Resolver;
  allowlist: AddressAllowlist;
  logger: Logger;
}) {
  return async function checkRegisteredUrl(url: string, field = "url"): Promise<WebhookTarget> {
    const target = checkWebhookUrl(url, deps.allowlist);
    if (!target.ok) throw new InvalidWebhookUrlError(target, field);
    if (target.literal) return target;
    let answers;
    try {
      answers = await deps.resolver(target.hostname);
    } catch {
      throw new InvalidWebhookUrlError(
        { ok: false, reason: "hostname_not_resolved", message: "the URL's host name does not resolve" },
        field,
      );
    }
    const verdict = checkResolution(answers, deps.allowlist);
    if (!verdict.allowed) {
      deps.logger.info(
        { hostname: target.hostname, category: verdict.category },
        "webhook URL refused at registration",
      );
      throw new InvalidWebhookUrlError(
        {
          ok: false,
          reason: "address_not_allowed",
          message: "the URL's host name resolves to an address that is not publicly routable",
        },
        field,
      );
    }
    return target;
  };
}
