/**
 * The failed-authentication limiter.
 *
 * Every failed authentication (a bad Bearer token, a malformed, unknown or revoked API key,
 * a wrong e-mail or password at POST /auth/token) draws 1 from two of identity's quotas,
 * shared by every gateway instance:
 *
 *   - CREDENTIAL_FAILURES of the (credential, source address) pair, 20 a minute: one person
 *     mistyping, a script with a stale key, or an attacker guessing one account's password is
 *     stopped there, and the other people behind the same address (an office NAT) are not;
 *   - AUTH_FAILURES of the source address, 1,000 a minute: the ceiling for an address trying
 *     many credentials (credential stuffing, key guessing).
 *
 * The credential of a login is its e-mail (normalised as identity does); a key or token names
 * no account before it is verified, so the credential is the presented key or token itself.
 * Pair subjects carry a SHA-256 digest, never the e-mail, key or token.
 *
 * When a pair or an address has nothing left, this gateway remembers it until the window
 * resets, and requests with that credential from that address (or any credential from that
 * address) are refused with 429 before they are evaluated: no signature check, no
 * AuthenticateApiKey, no password check, so a locked pair stays locked even for the right
 * password. Sequential attempts are cut off exactly at the limit. Attempts already in flight
 * when the limit is reached are still evaluated (each gateway learns of a block from its own
 * draw); every one of them is counted by identity and answered 429 once the count is over.
 */
import { createHash } from "node:crypto";
import { type Clock } from "@petri/service-kit";
import { QuotaPolicy } from "@petri/contracts/identity";
import {
  type DrawQuota,
  type QuotaDecision,
  type Window,
  bindingWindow,
  exhaustedUntil,
} from "./quota-draw.js";

export interface AuthFailureLimiterOptions {
  draw: DrawQuota;
  clock: Clock;
  maxEntries?: number;
}

/** Who failed: the source address and, when known, the credential it presented. */
export interface AuthAttempt {
  address: string;
  /** From `loginCredential` or `headerCredential`; absent when the credential is not read yet. */
  credential?: string;
}

/** Which limit refused: the credential's at this address, or the address's ceiling. */
export type FailureScope = "credential" | "address";

export interface FailureDecision extends QuotaDecision {
  scope: FailureScope;
}

/** The credential of POST /auth/token: the account's e-mail, compared as identity does. */
export function loginCredential(email: string): string {
  return `login:${email.trim().toLowerCase()}`;
}

/**
 * The credential of a password confirmation by a signed-in account (POST /auth/password): its
 * own pair, apart from logins, so guessing the current password with a stolen token stays
 * limited without locking the account's logins.
 */
export function passwordConfirmationCredential(accountId: string): string {
  return `password-confirmation:${accountId}`;
}

/** The credential of a request's Authorization or X-API-Key header, as presented. */
export function headerCredential(authorization: string | undefined, apiKey: string | undefined): string {
  return authorization !== undefined ? `authorization:${authorization.trim()}` : `api-key:${apiKey ?? ""}`;
}

/** The CREDENTIAL_FAILURES subject: a digest of the credential, "@", the address (<= 200 chars). */
export function pairSubject(credential: string, address: string): string {
  return `${createHash("sha256").update(credential).digest("base64url")}@${address}`;
}

const addressKey = (address: string) => `address ${address}`;
const pairKey = (credential: string, address: string) => `pair ${pairSubject(credential, address)}`;

export class AuthFailureLimiter {
  private readonly blocks = new Map<string, FailureDecision>();
  private readonly maxEntries: number;

  constructor(private readonly options: AuthFailureLimiterOptions) {
    this.maxEntries = options.maxEntries ?? 100_000;
  }

  /** The 429 to answer when the attempt's address, or its credential there, is blocked. */
  blocked(attempt: AuthAttempt): FailureDecision | undefined {
    // The usual case, nothing blocked anywhere: no key to build (the pair key hashes the credential).
    if (this.blocks.size === 0) return undefined;
    const keys = [addressKey(attempt.address)];
    if (attempt.credential !== undefined) keys.push(pairKey(attempt.credential, attempt.address));
    for (const key of keys) {
      const block = this.blocks.get(key);
      if (!block) continue;
      if (this.options.clock.now().getTime() < block.resetAt) return block;
      this.blocks.delete(key);
    }
    return undefined;
  }

  /**
   * Counts one failure of the attempt's credential and address. `allowed: false` means the
   * failure was over a limit (answer 429 instead of 401). Throws when identity cannot be
   * reached.
   */
  async recordFailure(attempt: Required<AuthAttempt>): Promise<FailureDecision> {
    const { address, credential } = attempt;
    const [perCredential, perAddress] = await Promise.all([
      this.options.draw(
        { policy: QuotaPolicy.CREDENTIAL_FAILURES, subject: pairSubject(credential, address) },
        1,
      ),
      this.options.draw({ policy: QuotaPolicy.AUTH_FAILURES, subject: address }, 1),
    ]);
    const addressBlock = this.remember(
      addressKey(address),
      "address",
      perAddress.granted,
      perAddress.windows,
    );
    const pairBlock = this.remember(
      pairKey(credential, address),
      "credential",
      perCredential.granted,
      perCredential.windows,
    );
    if (perAddress.granted <= 0 && addressBlock) return addressBlock;
    if (perCredential.granted <= 0 && pairBlock) return pairBlock;

    const binding = bindingWindow([...perCredential.windows, ...perAddress.windows]);
    return {
      allowed: true,
      limit: binding.limit,
      remaining: binding.remaining,
      resetAt: binding.resetsAt,
      window: binding.name,
      scope: perCredential.windows.includes(binding) ? "credential" : "address",
    };
  }

  /** Remembers a block when the draw was refused or spent the last failure of the window. */
  private remember(
    key: string,
    scope: FailureScope,
    granted: number,
    windows: readonly Window[],
  ): FailureDecision | undefined {
    const binding = bindingWindow(windows);
    if (granted > 0 && binding.remaining > 0) return undefined;
    const block: FailureDecision = {
      allowed: false,
      limit: binding.limit,
      remaining: 0,
      // At least a second, so a window reported as already over still holds off a retry loop.
      resetAt: Math.max(exhaustedUntil(windows), this.options.clock.now().getTime() + 1_000),
      window: binding.name,
      scope,
    };
    this.blocks.delete(key);
    this.blocks.set(key, block);
    if (this.blocks.size > this.maxEntries) {
      const oldest = this.blocks.keys().next().value;
      if (oldest !== undefined) this.blocks.delete(oldest);
    }
    return block;
  }
}
