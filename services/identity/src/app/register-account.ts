import { events } from "@petri/contracts";
import { isUniqueViolation } from "@petri/db";
import { recordEvent } from "@petri/events";
import { type Clock, ConflictError, ValidationError, currentTraceparent, newId } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { IdentityDb } from "../db/schema.js";
import { type RegistrationInput, normalizeEmail, validateRegistration } from "../domain/registration.js";
import { type AccountRecord, accountMessage } from "../rpc/account-message.js";

export interface RegisterAccountDeps {
  db: Kysely<IdentityDb>;
  clock: Clock;
  hashPassword(password: string): Promise<string>;
  /** Called after the commit, to wake the outbox relay. */
  afterCommit(): void;
}

/** Creates a requester account and, in the same transaction, its AccountRegistered event. */
export function makeRegisterAccount(deps: RegisterAccountDeps) {
  return async function registerAccount(input: RegistrationInput): Promise<AccountRecord> {
    const problems = validateRegistration(input);
    if (problems.length > 0) throw new ValidationError("the registration is invalid", problems);

    const now = deps.clock.now();
    const account: AccountRecord = {
      id: newId("usr", now),
      email: normalizeEmail(input.email),
      name: input.name.trim(),
      organization: input.organization.trim(),
      role: "requester",
      tier: "standard",
      created_at: now,
      updated_at: now,
    };
    const passwordHash = await deps.hashPassword(input.password);
    try {
      await deps.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("accounts")
          .values({ ...account, password_hash: passwordHash })
          .execute();
        await recordEvent(
          trx,
          events.identity.accountRegistered,
          { account: accountMessage(account) },
          {
            aggregateId: account.id,
            aggregateVersion: 1,
            occurredAt: now,
            traceparent: currentTraceparent(),
          },
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ConflictError("an account with this e-mail address already exists", "email_taken", {
          field: "email",
        });
      }
      throw error;
    }
    deps.afterCommit();
    return account;
  };
}
