import { isUniqueViolation } from "@petri/db";
import type { UnitOfWork } from "@petri/events";
import type { Clock, KeyEncryptionKey } from "@petri/service-kit";
import type { IdentityDb } from "../db/schema.js";
import { insertActiveSigningKey } from "../db/signing-keys.js";
import { retirementTime } from "../domain/signing-keys.js";
import { generateSigningKey, sealSigningKey } from "../security/signing-keys.js";
import { type PublishedSigningKey, publishedSigningKeys } from "./list-signing-keys.js";

export interface RotateSigningKeyDeps {
  clock: Clock;
  kek: KeyEncryptionKey;
  accessTokenTtlSeconds: number;
  unitOfWork: UnitOfWork<IdentityDb>;
}

export interface RotationResult {
  active: PublishedSigningKey;
  retiring: PublishedSigningKey[];
}

const ATTEMPTS = 3;

/**
 * Makes a new active key. The old one becomes retiring until every token it signed has
 * expired (token lifetime + skew), so tokens already handed out keep working; retired
 * keys past that point are deleted here.
 */
export function makeRotateSigningKey(deps: RotateSigningKeyDeps) {
  return async function rotateSigningKey(): Promise<RotationResult> {
    for (let attempt = 1; ; attempt += 1) {
      const key = await generateSigningKey();
      const sealed = sealSigningKey(deps.kek, key);
      const now = deps.clock.now();
      try {
        const keys = await deps.unitOfWork.run(async (trx) => {
          await trx
            .deleteFrom("signing_keys")
            .where("state", "=", "retiring")
            .where("retires_at", "<=", now)
            .execute();
          await trx
            .updateTable("signing_keys")
            .set({ state: "retiring", retires_at: retirementTime(now, deps.accessTokenTtlSeconds) })
            .where("state", "=", "active")
            .execute();
          await insertActiveSigningKey(trx, key, sealed, now);
          return publishedSigningKeys(trx, now);
        });
        const active = keys.find((k) => k.state === "active");
        if (!active) throw new Error("rotation committed without an active key");
        return { active, retiring: keys.filter((k) => k.state === "retiring") };
      } catch (error) {
        // A concurrent rotation inserted its active key after our UPDATE looked: go again,
        // retiring that one in turn.
        if (!isUniqueViolation(error) || attempt >= ATTEMPTS) throw error;
      }
    }
  };
}
