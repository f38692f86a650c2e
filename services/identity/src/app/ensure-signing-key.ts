import { isUniqueViolation } from "@petri/db";
import type { Clock, KeyEncryptionKey } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findActiveSigningKey, insertActiveSigningKey } from "../db/signing-keys.js";
import type { IdentityDb } from "../db/schema.js";
import { generateSigningKey, sealSigningKey } from "../security/signing-keys.js";
import type { ActiveSigningKeySource } from "./signing-key-cache.js";

export interface EnsureSigningKeyDeps {
  db: Kysely<IdentityDb>;
  clock: Clock;
  kek: KeyEncryptionKey;
  signingKeys: ActiveSigningKeySource;
}

const ATTEMPTS = 5;

/**
 * At start: makes sure an active signing key exists, creating one if not. Two replicas
 * starting at once both try; the unique partial index on state = 'active' lets one insert
 * win, and the loser finds the winner's key on its next look. Finally the active key is
 * opened once, so a wrong PETRI_IDENTITY_KEK fails the start, not the first login.
 */
export function makeEnsureSigningKey(deps: EnsureSigningKeyDeps) {
  return async function ensureSigningKey(): Promise<{ kid: string; created: boolean }> {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
      const existing = await findActiveSigningKey(deps.db);
      if (existing) {
        await deps.signingKeys.current();
        return { kid: existing.kid, created: false };
      }
      const key = await generateSigningKey();
      const sealed = sealSigningKey(deps.kek, key);
      try {
        await insertActiveSigningKey(deps.db, key, sealed, deps.clock.now());
        return { kid: key.kid, created: true };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // Another replica made the active key first; use it.
      }
    }
    throw new Error(`could not establish an active signing key after ${ATTEMPTS} attempts`);
  };
}
