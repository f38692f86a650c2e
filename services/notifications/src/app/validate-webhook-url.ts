/**
 * ValidateWebhookUrl: for the gateway, when a request names communication_preferences.
 * webhook_url (POST /experiments, PATCH): 422 invalid_webhook_url when the URL is not
 * allowed, the normalised URL otherwise.
 */
import type { makeCheckWebhookUrl } from "./check-webhook-url.js";

export function makeValidateWebhookUrl(deps: { checkUrl: ReturnType<typeof makeCheckWebhookUrl> }) {
  return async function validateWebhookUrl(url: string): Promise<{ url: string }> {
    const target = await deps.checkUrl(url);
    return { url: target.url };
  };
}
