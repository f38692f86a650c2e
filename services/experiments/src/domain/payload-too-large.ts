/**
 * A request body over a size limit. A domain error of the validation kind (Connect
 * InvalidArgument) with its own public code, so the ConnectError carries ErrorDetail reason
 * `payload_too_large` and the gateway answers 413 for it (422 validation_failed is the
 * fallback of a caller that does not know the reason).
 */
import { DomainError } from "@petri/service-kit";

export class PayloadTooLargeError extends DomainError {
  readonly kind = "validation_failed" as const;
  override get code(): string {
    return "payload_too_large";
  }
}
