import { events } from "@petri/contracts";
import { isUniqueViolation } from "@petri/db";
import { recordEvent } from "@petri/events";
import { type Clock, ConflictError, ValidationError, currentTraceparent, newId } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { type ApiKeyRecord, insertApiKey } from "../db/api-keys.js";
import type { IdentityDb } from "../db/schema.js";
import { DEFAULT_API_KEY_NAME } from "../domain/api-keys.js";
import { type RegistrationInput, normalizeEmail, validateRegistration } from "../domain/registration.js";
import { type AccountRecord, accountMessage } from "../rpc/account-message.js";
import { mintApiKey } from "../security/api-keys.js";

export interface RegisterAccountDeps {
  db: Kysely<IdentityDb>;
  clock: Clock;
  hashPassword(password: string): Promise<string>;
  apiKeyPepper: Uint8Array;
  /** Called after the commit, to wake the outbox relay. */
  afterCommit(): void;
}

export interface RegisteredAccount {
  account: AccountRecord;
  apiKey: ApiKeyRecord;
  /** The API key's secret: returned here once, stored nowhere. */
  apiKeySecret: string;
}

/**
 * Creates a requester account, its first API key ("default") and its AccountRegistered
 * event, all in one transaction.
 */
export function makeRegisterAccount(deps: RegisterAccountDeps) {
  return async function registerAccount(input: RegistrationInput): Promise<RegisteredAccount> {
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
      rate_limit_per_minute: null,
      rate_limit_per_day: null,
      created_at: now,
      updated_at: now,
    };
    const minted = mintApiKey(deps.apiKeyPepper);
    const apiKey: ApiKeyRecord = {
      id: newId("key", now),
      account_id: account.id,
      name: DEFAULT_API_KEY_NAME,
      display_prefix: minted.displayPrefix,
      created_at: now,
      revoked_at: null,
      last_used_at: null,
    };
    const passwordHash = await deps.hashPassword(input.password);
    try {
      await deps.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("accounts")
          .values({ ...account, password_hash: passwordHash })
          .execute();
        await insertApiKey(trx, { ...apiKey, secret_hash: minted.secretHash });
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
      if (isUniqueViolation(error, "accounts_email_key")) {
        throw new ConflictError("an account with this e-mail address already exists", "email_taken", {
          field: "email",
        });
      }
      throw error;
    }
    deps.afterCommit();
    return { account, apiKey, apiKeySecret: minted.secret };
  };
}
