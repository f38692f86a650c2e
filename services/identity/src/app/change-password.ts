import type { UnitOfWork } from "@petri/events";
import { type Clock, type FieldError, UnauthenticatedError, ValidationError } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { IdentityDb } from "../db/schema.js";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../domain/registration.js";
import type { PasswordHasher } from "../security/passwords.js";
import { raiseCredentialsEpoch } from "./raise-credentials-epoch.js";

export interface ChangePasswordInput {
  accountId: string;
  currentPassword: string;
  newPassword: string;
}

function validate(input: ChangePasswordInput): FieldError[] {
  const problems: FieldError[] = [];
  const current = [...input.currentPassword].length;
  if (current === 0)
    problems.push({
      field: "current_password",
      code: "missing_required",
      message: "current_password is required",
    });
  else if (current > PASSWORD_MAX_LENGTH)
    problems.push({
      field: "current_password",
      code: "invalid_value",
      message: `current_password is longer than ${PASSWORD_MAX_LENGTH} characters`,
    });
  const next = [...input.newPassword].length;
  if (next === 0)
    problems.push({ field: "new_password", code: "missing_required", message: "new_password is required" });
  else if (next < PASSWORD_MIN_LENGTH || next > PASSWORD_MAX_LENGTH)
    problems.push({
      field: "new_password",
      code: "invalid_value",
      message: `new_password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
    });
  return problems;
}

/**
 * An account sets a new password, proving the current one. Every access token issued before
 * stops working (the credentials epoch is raised); API keys are separate credentials and
 * stay valid until revoked.
 */
export function makeChangePassword(deps: {
  db: Kysely<IdentityDb>;
  clock: Clock;
  hasher: PasswordHasher;
  unitOfWork: UnitOfWork<IdentityDb>;
}) {
  return async function changePassword(input: ChangePasswordInput): Promise<void> {
    const problems = validate(input);
    if (problems.length > 0) throw new ValidationError("the password change is invalid", problems);
    const account = await deps.db
      .selectFrom("accounts")
      .select(["id", "password_hash"])
      .where("id", "=", input.accountId)
      .executeTakeFirst();
    if (!account || !(await deps.hasher.verify(account.password_hash, input.currentPassword)))
      throw new UnauthenticatedError("the current password is wrong");
    const newHash = await deps.hasher.hash(input.newPassword);
    const now = deps.clock.now();
    await deps.unitOfWork.run(async (trx) => {
      // Guarded by the verified hash, so of two concurrent changes only one applies.
      const updated = await trx
        .updateTable("accounts")
        .set({ password_hash: newHash })
        .where("id", "=", account.id)
        .where("password_hash", "=", account.password_hash)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0)
        throw new UnauthenticatedError("the password changed meanwhile; try again");
      await raiseCredentialsEpoch(trx, account.id, "password_changed", now);
    });
  };
}
