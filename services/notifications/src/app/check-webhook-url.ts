/**
 * The registration-time check of a webhook URL: the static rules, then the hostname resolved
 * and every answer checked (@petri/service-kit's outbound-url policy). Used by
 * ValidateWebhookUrl and TestWebhook; a name that does not resolve is refused here (a test
 * has nothing to send to), whereas the experiments service, registering a request's URL,
 * accepts it with a warning. Delivery attempts repeat the address check at connect time.
 */
import {
  type AddressAllowlist,
  type Logger,
  type Resolver,
  type WebhookTarget,
  checkResolution,
  checkWebhookUrl,
} from "@petri/service-kit";
import { InvalidWebhookUrlError } from "../domain/errors.js";

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
