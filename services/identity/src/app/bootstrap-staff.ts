import { isUniqueViolation } from "@petri/db";
import type { UnitOfWork } from "@petri/events";
import { type Clock, type Logger, ValidationError, newId } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { AccountRecord } from "../db/accounts.js";
import type { IdentityDb } from "../db/schema.js";
import { normalizeEmail, validateRegistration } from "../domain/registration.js";
import type { PasswordHasher } from "../security/passwords.js";
import { recordAccountRegistered } from "./account-events.js";
import { raiseCredentialsEpoch } from "./raise-credentials-epoch.js";
import { changeAccountAccess } from "./update-account-access.js";

export interface StaffCredentials {
  email: string;
  password: string;
}

export interface BootstrapStaffDeps {
  db: Kysely<IdentityDb>;
  clock: Clock;
  logger: Logger;
  hasher: PasswordHasher;
  unitOfWork: UnitOfWork<IdentityDb>;
}

export type BootstrapOutcome = "created" | "updated" | "unchanged";

const ATTEMPTS = 3;

/**
 * At start, with PETRI_STAFF_EMAIL / PETRI_STAFF_PASSWORD: creates that staff account, or
 * makes the existing account staff with that password. Idempotent (a second run with the
 * same values changes nothing) and safe when two replicas run it at once: the loser of the
 * insert race updates the winner's row instead, under a row lock.
 */
export function makeBootstrapStaff(deps: BootstrapStaffDeps) {
  return async function bootstrapStaff(staff: StaffCredentials): Promise<BootstrapOutcome> {
    const problems = validateRegistration({ ...staff, name: "Staff", organization: "" });
    if (problems.length > 0) throw new ValidationError("the staff credentials are invalid", problems);
    const email = normalizeEmail(staff.email);
    for (let attempt = 1; ; attempt += 1) {
      try {
        const outcome = await createOrUpdate(deps, email, staff.password);
        deps.logger.info({ email, outcome }, "staff account bootstrapped");
        return outcome;
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= ATTEMPTS) throw error;
      }
    }
  };
}

async function createOrUpdate(
  deps: BootstrapStaffDeps,
  email: string,
  password: string,
): Promise<BootstrapOutcome> {
  const existing = await deps.db
    .selectFrom("accounts")
    .select(["id", "role", "password_hash"])
    .where("email", "=", email)
    .executeTakeFirst();
  if (!existing) {
    const now = deps.clock.now();
    const account: AccountRecord = {
      id: newId("usr", now),
      email,
      name: "Staff",
      organization: "Petri",
      role: "staff",
      tier: "standard",
      rate_limit_per_minute: null,
      rate_limit_per_day: null,
      created_at: now,
      updated_at: now,
    };
    const passwordHash = await deps.hasher.hash(password);
    await deps.unitOfWork.run(async (trx) => {
      await trx
        .insertInto("accounts")
        .values({ ...account, password_hash: passwordHash })
        .execute();
      await recordAccountRegistered(trx, account, now);
    });
    return "created";
  }

  // Already staff with this very password (and a current hash): nothing to do.
  const passwordMatches = await deps.hasher.verify(existing.password_hash, password);
  const passwordCurrent = passwordMatches && !deps.hasher.needsRehash(existing.password_hash);
  if (existing.role === "staff" && passwordCurrent) return "unchanged";

  const newHash = passwordCurrent ? existing.password_hash : await deps.hasher.hash(password);
  const now = deps.clock.now();
  await deps.unitOfWork.run(async (trx) => {
    const access = await changeAccountAccess(trx, { accountId: existing.id, role: "staff" }, now);
    if (!passwordCurrent) {
      await trx
        .updateTable("accounts")
        .set((eb) => ({ password_hash: newHash, updated_at: now, version: eb("version", "+", 1) }))
        .where("id", "=", existing.id)
        .execute();
    }
    // A new staff password ends the tokens issued under the old one, as any password change
    // (a promotion has raised the epoch already).
    if (!passwordMatches && !access.changed)
      await raiseCredentialsEpoch(trx, existing.id, "password_changed", now);
  });
  return "updated";
}
