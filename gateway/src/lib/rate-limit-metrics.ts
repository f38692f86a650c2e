/**
 * Rate-limit refusals (429) by the quota that refused and the caller's tier: `account` (the
 * account's tier quota), `anonymous` (the address's quota for unauthenticated requests) and
 * `auth_failures` (too many failed authentications); tier "anonymous" when no caller is known.
 */
import { BoundChildren, counter } from "@petri/service-kit";

export type RefusingQuota = "account" | "anonymous" | "auth_failures";

const refusals = counter({
  name: "petri_rate_limit_refusals_total",
  help: "Requests the gateway refused with 429, by the quota that refused and the caller's tier",
  labelNames: ["quota", "tier"],
});
const children = new BoundChildren<{ inc(): void }>();

export function countRateLimitRefusal(quota: RefusingQuota, tier = "anonymous"): void {
  children.get(`${quota} ${tier}`, () => refusals.labels(quota, tier)).inc();
}
