/** Lifecycle of the keys that sign access tokens: active -> retiring -> gone. */
import type { SigningKeyStateName } from "@petri/contracts/vocabulary";

/**
 * Extra life of a retiring key beyond the token lifetime: covers a replica that read the
 * old active key just before a rotation and clock skew between identity and the gateways.
 */
export const RETIREMENT_SKEW_SECONDS = 300;

/** When a key retired at `now` stops verifying: every token it signed has expired by then. */
export function retirementTime(now: Date, tokenTtlSeconds: number): Date {
  return new Date(now.getTime() + (tokenTtlSeconds + RETIREMENT_SKEW_SECONDS) * 1000);
}

/** Keys that still verify tokens at `now`: the active one and unexpired retiring ones. */
export function isPublished(
  key: { state: SigningKeyStateName; retires_at: Date | null },
  now: Date,
): boolean {
  return key.state === "active" || (key.retires_at !== null && key.retires_at.getTime() > now.getTime());
}
