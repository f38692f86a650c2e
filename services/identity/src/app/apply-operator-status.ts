import type { OperatorEligibilityChanged } from "@petri/contracts/marketplace";
import type { Kysely } from "kysely";
import type { IdentityDb } from "../db/schema.js";
import { roleForOperatorStatus } from "../domain/operator-role.js";
import { changeAccountAccess } from "./update-account-access.js";

/**
 * Consumer effect of marketplace OperatorEligibilityChanged, inside the consumer's transaction:
 * the account's role follows its lab's status. Events may arrive late or out of order, so the
 * last applied operator version per account is kept and an older one changes nothing. An
 * unknown account (deleted, or another deployment's) is skipped, not retried forever.
 */
export async function applyOperatorStatus(
  trx: Kysely<IdentityDb>,
  event: OperatorEligibilityChanged,
  now: Date,
): Promise<"applied" | "stale" | "unknown_account"> {
  const eligibility = event.eligibility;
  if (!eligibility) return "stale";
  const version = Number(eligibility.version);
  const account = await trx
    .selectFrom("accounts")
    .select(["id", "role"])
    .where("id", "=", eligibility.accountId)
    .forUpdate()
    .executeTakeFirst();
  if (!account) return "unknown_account";

  const applied = await trx
    .selectFrom("operator_role_sources")
    .select("operator_version")
    .where("account_id", "=", account.id)
    .executeTakeFirst();
  if (applied && Number(applied.operator_version) >= version) return "stale";

  const row = {
    account_id: account.id,
    operator_id: eligibility.operatorId,
    operator_status: eligibility.status,
    operator_version: version,
    updated_at: now,
  };
  await trx
    .insertInto("operator_role_sources")
    .values(row)
    .onConflict((oc) => oc.column("account_id").doUpdateSet(row))
    .execute();

  const role = roleForOperatorStatus(account.role, eligibility.status);
  if (role !== account.role) {
    await changeAccountAccess(trx, { accountId: account.id, role }, now);
  }
  return "applied";
}
