/** What every operator change shares: loading for staff, the status machine's verdict, saving with its event. */
import { InvalidStateError, NotFoundError, ValidationError } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { OperatorStatusName } from "@petri/contracts/vocabulary";
import { type OperatorChanges, type OperatorRecord, findOperator, updateOperator } from "../db/operators.js";
import type { MarketplaceDb } from "../db/schema.js";
import {
  type OperatorEvent,
  type OperatorState,
  TRANSITIONS,
  transitionOperator,
} from "../domain/operators/status.js";
import { REASON_MAX_LENGTH, requiredText } from "../domain/text.js";
import { recordEligibilityChanged } from "./operator-events.js";
import { type ChangingDeps, type OperatorView, viewOf } from "./operator-view.js";

/** The operator, locked for a staff change; 404 when there is none. */
export async function lockOperator(trx: Kysely<MarketplaceDb>, operatorId: string): Promise<OperatorRecord> {
  const record = await findOperator(trx, operatorId, { lock: true });
  if (!record) throw new NotFoundError("operator", operatorId);
  return record;
}

/** The statuses `event` may start from (details.allowed_from of a 409). */
export function allowedFrom(event: OperatorEvent["type"]): OperatorStatusName[] {
  return Object.keys(TRANSITIONS[event]) as OperatorStatusName[];
}

/**
 * The state after `event`, or the service error: 409 invalid_state (with the status and the
 * statuses it is allowed from) for a wrong status, 422 naming `field` for a failed guard
 * (blank reason, incomplete verification).
 */
export function transitionOrThrow(
  record: OperatorRecord,
  event: OperatorEvent,
  now: Date,
  field: string,
): OperatorState {
  const result = transitionOperator(
    { status: record.status, changed_at: record.updatedAt.toISOString() },
    event,
    now,
  );
  if (result.ok) return result.state;
  if (result.error.code === "invalid_transition")
    throw new InvalidStateError(result.error.message, record.status, allowedFrom(event.type));
  throw new ValidationError(result.error.message, [
    { field, code: "invalid_value", message: result.error.message },
  ]);
}

/** Saves a change (version + 1) and records OperatorEligibilityChanged in the same transaction. */
export async function saveOperatorChange(
  trx: Kysely<MarketplaceDb>,
  current: OperatorRecord,
  changes: OperatorChanges,
): Promise<OperatorRecord> {
  const updated = await updateOperator(trx, current, changes);
  await recordEligibilityChanged(trx, updated, current.status, changes.updatedAt);
  return updated;
}

/**
 * A staff change that takes a reason (reject, suspend): the reason is required (1..1000
 * characters) and kept as the status reason while the new status lasts.
 */
export async function changeWithReason(
  deps: ChangingDeps,
  input: { operatorId: string; reason: string },
  type: "reject" | "suspend",
): Promise<OperatorView> {
  const reason = requiredText("reason", input.reason, REASON_MAX_LENGTH);
  const now = deps.clock.now();
  return deps.unitOfWork.run(async (trx) => {
    const current = await lockOperator(trx, input.operatorId);
    const next = transitionOrThrow(current, { type, reason }, now, "reason");
    const updated = await saveOperatorChange(trx, current, {
      status: next.status,
      statusReason: next.reason ?? reason,
      updatedAt: now,
    });
    return viewOf(trx, updated);
  });
}
