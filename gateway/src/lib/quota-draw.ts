/** Drawing from identity's shared quota counters (IdentityService.AcquireQuota). */
import type { Client } from "@connectrpc/connect";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type IdentityService, type QuotaPolicy, type QuotaWindow, Tier } from "@petri/contracts/identity";
import { asGateway } from "./clients.js";

export interface QuotaKey {
  policy: QuotaPolicy;
  /** Account id (ACCOUNT), source address (ANONYMOUS, AUTH_FAILURES) or credential@address pair (CREDENTIAL_FAILURES). */
  subject: string;
  /** The account's tier (ACCOUNT only). */
  tier?: Tier;
}

export interface Window {
  name: string;
  limit: number;
  remaining: number;
  /** Epoch ms. */
  resetsAt: number;
}

export interface Draw {
  granted: number;
  /** Every window of the policy after the draw (at least one). */
  windows: Window[];
}

/** Asks for `requested` requests of `key`'s quota; throws when identity cannot be reached. */
export type DrawQuota = (key: QuotaKey, requested: number) => Promise<Draw>;

function windowOf(window: QuotaWindow): Window {
  return {
    name: window.name || "window",
    limit: Number(window.limit),
    remaining: Math.max(0, Number(window.remaining)),
    resetsAt: window.resetsAt ? timestampDate(window.resetsAt).getTime() : 0,
  };
}

/** The AcquireQuota RPC, called as the gateway's system principal. */
export function drawFromIdentity(identity: Client<typeof IdentityService>): DrawQuota {
  return async (key, requested) => {
    const response = await identity.acquireQuota(
      { policy: key.policy, subject: key.subject, tier: key.tier ?? Tier.UNSPECIFIED, requested },
      asGateway(),
    );
    const windows = response.windows.map(windowOf);
    if (windows.length === 0 && response.binding) windows.push(windowOf(response.binding));
    if (windows.length === 0) throw new Error("AcquireQuota returned no window");
    return { granted: Math.max(0, response.granted), windows };
  };
}

/**
 * The window the headers report: the one with the fewest requests left (IETF
 * ratelimit-headers: report the lower remaining); on a tie, the one that resets last.
 */
export function bindingWindow(windows: readonly Window[]): Window {
  let best = windows[0]!;
  for (const window of windows.slice(1)) {
    if (
      window.remaining < best.remaining ||
      (window.remaining === best.remaining && window.resetsAt > best.resetsAt)
    ) {
      best = window;
    }
  }
  return best;
}

/** When an exhausted quota opens again: the latest reset among the windows with nothing left. */
export function exhaustedUntil(windows: readonly Window[]): number {
  const exhausted = windows.filter((window) => window.remaining <= 0);
  const pool = exhausted.length > 0 ? exhausted : windows;
  return Math.max(...pool.map((window) => window.resetsAt));
}

/** What the X-RateLimit-* headers (and a 429's details) say. */
export interface QuotaDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms of the binding window's reset. */
  resetAt: number;
  window: string;
}
