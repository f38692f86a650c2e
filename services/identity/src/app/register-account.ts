import { isUniqueViolation } from "@petri/db";
import type { UnitOfWork } from "@petri/events";
import { type Clock, ConflictError, ValidationError, newId } from "@petri/service-kit";
import { type ApiKeyRecord, insertApiKey } from "../db/api-keys.js";
import type { AccountRecord } from "../db/accounts.js";
import type { IdentityDb } from "../db/schema.js";
import { DEFAULT_API_KEY_NAME } from "../domain/api-keys.js";
import { type RegistrationInput, normalizeEmail, validateRegistration } from "../domain/registration.js";
import { mintApiKey } from "../security/api-keys.js";
import { recordAccountRegistered } from "./account-events.js";

export interface RegisterAccountDeps {
  clock: Clock;
  hashPassword(password: string): Promise<string>;
  apiKeyPepper: Uint8Array;
  unitOfWork: UnitOfWork<IdentityDb>;
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
      await deps.unitOfWork.run(async (trx) => {
        await trx
          .insertInto("accounts")
          .values({ ...account, password_hash: passwordHash })
          .execute();
        await insertApiKey(trx, { ...apiKey, secret_hash: minted.secretHash });
        await recordAccountRegistered(trx, account, now);
      });
    } catch (error) {
      if (isUniqueViolation(error, "accounts_email_key")) {
        throw new ConflictError("an account with this e-mail address already exists", "email_taken", {
          field: "email",
        });
      }
      throw error;
    }
    return { account, apiKey, apiKeySecret: minted.secret };
  };
}
