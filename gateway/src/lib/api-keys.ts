/**
 * X-API-Key authentication with a short cache.
 *
 * A key that does not have the documented shape (api-key-format.ts) is refused here, with
 * no call to identity. A well-formed key is resolved by IdentityService.AuthenticateApiKey
 * (as the gateway's system principal) and the answer is cached for `ttlMs` (30 s) under the
 * SHA-256 of the secret (the secret itself is never kept). Refusals are not cached, so a key
 * created a moment ago works at once. Concurrent requests with the same key share one lookup.
 *
 * Revocation: revoking a key evicts it at once (and keeps an in-flight lookup from re-adding
 * it): through this gateway directly, on every other gateway when identity's ApiKeyRevoked
 * reaches it over the revocation watch. Were that message lost, the entry still expires
 * after `ttlMs` (30 s).
 * A role or tier change (the operator role taken back included) raises the account's
 * credentials epoch: an entry looked up under a lower epoch than the revocation state now
 * knows (lib/revocations.ts) is dropped and looked up again, on every gateway at once.
 */
import { createHash } from "node:crypto";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import type { IdentityService } from "@petri/contracts/identity";
import type { Clock, Logger, Principal } from "@petri/service-kit";
import { isWellFormedApiKey } from "./api-key-format.js";
import { asGateway } from "./clients.js";
import { CredentialRejectedError } from "./credential-errors.js";
import { principalOf } from "./identity-json.js";
import type { RevocationState } from "./revocations.js";

export const DEFAULT_API_KEY_CACHE_TTL_MS = 30_000;

export interface ApiKeyAuthenticatorOptions {
  identity: Client<typeof IdentityService>;
  clock: Clock;
  logger: Logger;
  ttlMs?: number;
  maxEntries?: number;
  revocations: RevocationState;
}

interface CachedKey extends Lookup {
  expiresAt: number;
}

interface Lookup {
  principal: Principal;
  apiKeyId: string;
  /** The account's credentials epoch identity answered with. */
  epoch: number;
}

export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, CachedKey>();
  private readonly inflight = new Map<string, Promise<Lookup>>();
  /** apiKeyId -> the eviction sequence number, so a lookup that raced a revoke is not cached. */
  private readonly evictions = new Map<string, number>();
  private sequence = 0;
  readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(private readonly options: ApiKeyAuthenticatorOptions) {
    this.ttlMs = options.ttlMs ?? DEFAULT_API_KEY_CACHE_TTL_MS;
    this.maxEntries = options.maxEntries ?? 10_000;
    options.revocations.onApiKeyRevoked((apiKeyId) => this.evict(apiKeyId));
  }

  async authenticate(secret: string): Promise<Principal> {
    if (!isWellFormedApiKey(secret)) throw new CredentialRejectedError("malformed API key");
    const hash = createHash("sha256").update(secret).digest("hex");
    const { revocations } = this.options;
    await revocations.ready();
    const now = this.options.clock.now().getTime();
    const cached = this.cache.get(hash);
    const current = (entry: Lookup) => entry.epoch >= revocations.epochOf(entry.principal.accountId);
    if (cached && now < cached.expiresAt && current(cached)) return cached.principal;
    if (cached) this.cache.delete(hash);

    let pending = this.inflight.get(hash);
    if (!pending) {
      const startedAt = this.sequence;
      pending = this.lookup(secret)
        .then((found) => {
          const evictedAt = this.evictions.get(found.apiKeyId);
          if ((evictedAt === undefined || evictedAt <= startedAt) && current(found))
            this.remember(hash, found);
          return found;
        })
        .finally(() => this.inflight.delete(hash));
      this.inflight.set(hash, pending);
    }
    return (await pending).principal;
  }

  /** Forgets a key at once (after RevokeApiKey through this gateway, or its ApiKeyRevoked). */
  evict(apiKeyId: string): void {
    this.sequence += 1;
    this.evictions.delete(apiKeyId);
    this.evictions.set(apiKeyId, this.sequence);
    if (this.evictions.size > this.maxEntries) {
      const oldest = this.evictions.keys().next().value;
      if (oldest !== undefined) this.evictions.delete(oldest);
    }
    for (const [hash, entry] of this.cache) {
      if (entry.apiKeyId === apiKeyId) this.cache.delete(hash);
    }
  }

  private remember(hash: string, found: Lookup): void {
    this.cache.set(hash, { ...found, expiresAt: this.options.clock.now().getTime() + this.ttlMs });
    if (this.cache.size > this.maxEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }

  private async lookup(secret: string): Promise<Lookup> {
    let response;
    try {
      response = await this.options.identity.authenticateApiKey({ secret }, asGateway());
    } catch (error) {
      const code = error instanceof ConnectError ? error.code : undefined;
      if (code === Code.Unauthenticated || code === Code.NotFound) {
        throw new CredentialRejectedError("API key unknown or revoked");
      }
      throw error;
    }
    const principal = principalOf(response.principal);
    if (!principal || !response.apiKeyId) {
      this.options.logger.error(
        { api_key_id: response.apiKeyId },
        "AuthenticateApiKey returned no usable principal",
      );
      throw new CredentialRejectedError("API key without a usable principal");
    }
    return { principal, apiKeyId: response.apiKeyId, epoch: Number(response.credentialsEpoch) };
  }
}
