import { ConflictError, InvalidStateError, type UrlRefusal, ValidationError } from "@petri/service-kit";

/**
 * A webhook URL the policy refuses: 422 with the public code `invalid_webhook_url` and one
 * field error whose code says why (https_required, address_not_allowed, ...). The message
 * never names a resolved address.
 */
export class InvalidWebhookUrlError extends ValidationError {
  constructor(refusal: UrlRefusal, field = "url") {
    super(`the webhook URL is not allowed: ${refusal.message}`, [
      { field, code: refusal.reason, message: refusal.message },
    ]);
  }
  override get code(): string {
    return "invalid_webhook_url";
  }
}

/** Replaying one delivery while the account's deliveries are paused: resume instead. */
export function deliveriesPausedError(): InvalidStateError {
  return new InvalidStateError(
    "the account's webhook deliveries are paused; resume them to send this one",
    "paused",
    ["active"],
  );
}

/** A replay of a delivery whose attempt is in progress right now. */
export function deliveryInFlightError(deliveryId: string): ConflictError {
  return new ConflictError(
    `webhook delivery ${deliveryId} is being attempted right now; try again in a few seconds`,
    "webhook_delivery_in_flight",
    { delivery_id: deliveryId, retryable: true },
  );
}
