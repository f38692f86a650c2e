import { isDeepStrictEqual } from "node:util";
import { type Principal, ValidationError, newId } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { type OperatorRecord, findOperatorByAccount, insertOperator } from "../db/operators.js";
import type { MarketplaceDb } from "../db/schema.js";
import { type OperatorProfile, labNameOf, validateOperatorProfile } from "../domain/operators/profile.js";
import { NEW_OPERATOR_QUALITY } from "../domain/operators/quality.js";
import { initialOperatorState } from "../domain/operators/status.js";
import { parseJsonObject } from "../domain/text.js";
import { recordEligibilityChanged } from "./operator-events.js";
import { saveOperatorChange, transitionOrThrow } from "./operator-changes.js";
import { type ChangingDeps, type OperatorView, viewOf } from "./operator-view.js";

/** Statuses from which submitting a profile sends the operator to verification. */
const SUBMITS_FOR_VERIFICATION = new Set(["onboarding", "rejected"]);

function validProfile(profileJson: string): OperatorProfile {
  const result = validateOperatorProfile(parseJsonObject("profile_json", profileJson));
  if (!result.ok)
    throw new ValidationError(
      "the operator profile is invalid",
      result.errors.map((e) => ({ field: e.path, code: e.code, message: e.message })),
    );
  return result.value;
}

/** Profiles compared as stored (jsonb drops absent optional keys and reorders keys). */
function sameProfile(a: OperatorProfile, b: OperatorProfile): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
}

async function createOperator(
  trx: Kysely<MarketplaceDb>,
  accountId: string,
  profile: OperatorProfile,
  now: Date,
): Promise<OperatorRecord | undefined> {
  const id = newId("op", now);
  const onboarding = initialOperatorState(now);
  const record: OperatorRecord = {
    id,
    accountId,
    status: onboarding.status,
    profile,
    verification: null,
    statusReason: null,
    labName: labNameOf(profile, id),
    quality: NEW_OPERATOR_QUALITY,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const submitted = transitionOrThrow(record, { type: "submit" }, now, "status");
  const inserted = await insertOperator(trx, { ...record, status: submitted.status });
  if (inserted) await recordEligibilityChanged(trx, inserted, onboarding.status, now);
  return inserted;
}

/**
 * The caller submits (or replaces) its lab profile. The first submission creates the
 * operator (`op_` id, one per account) and sends it to verification; so does a resubmission
 * after a rejection. In any other status the profile is replaced and the status kept: a
 * pending operator's new profile waits for the same verification, and an active operator stays
 * active because what it declares counts only as far as staff verified it (eligibilityOf), so
 * a widened profile (new types, higher BSL, approvals, equipment) needs a re-verification
 * while a narrowed one applies at once. Every change bumps the version and records
 * OperatorEligibilityChanged; an identical resubmission changes nothing.
 */
export function makeSubmitOperatorProfile(deps: ChangingDeps) {
  return async function submitOperatorProfile(
    principal: Principal,
    input: { profileJson: string },
  ): Promise<OperatorView> {
    const profile = validProfile(input.profileJson);
    const now = deps.clock.now();
    const outcome = await deps.unitOfWork.run(async (trx) => {
      let current = await findOperatorByAccount(trx, principal.accountId, { lock: true });
      if (!current) {
        const created = await createOperator(trx, principal.accountId, profile, now);
        if (created) return { operator: await viewOf(trx, created), changed: true };
        // A concurrent first submission won the insert; it is committed now, so edit it.
        current = await findOperatorByAccount(trx, principal.accountId, { lock: true });
        if (!current) throw new Error(`operator of ${principal.accountId} conflicted but is not visible`);
      }
      const resubmits = SUBMITS_FOR_VERIFICATION.has(current.status);
      if (!resubmits && sameProfile(current.profile, profile))
        return { operator: await viewOf(trx, current), changed: false };
      const status = resubmits
        ? transitionOrThrow(current, { type: "submit" }, now, "status").status
        : current.status;
      const updated = await saveOperatorChange(trx, current, {
        profile,
        labName: labNameOf(profile, current.id),
        status,
        ...(resubmits ? { statusReason: null } : {}),
        updatedAt: now,
      });
      return { operator: await viewOf(trx, updated), changed: true };
    });
    return outcome.operator;
  };
}
