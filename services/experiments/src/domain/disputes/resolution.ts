/**
 * Staff resolution of a dispute. Pure.
 *
 * The amount at stake is the experiment's hold: still in escrow when the dispute was raised
 * before approval, already released to the operator when it was raised after (the ledger then
 * claws the requester's share back from the operator). Outcomes:
 * - requester: all of it to the requester;
 * - operator: all of it to the operator;
 * - split: the two amounts staff give, each >= 0, adding up to exactly the amount at stake.
 * For requester and operator the amounts may be omitted (0 and 0) or given as they must be.
 * The note is optional, at most 5,000 characters.
 */
import { DISPUTE_OUTCOMES, type DisputeOutcomeName } from "@petri/contracts/vocabulary";
import { type FieldError, ValidationError } from "@petri/service-kit";

export const RESOLUTION_NOTE_MAX_LENGTH = 5_000;

export interface DisputeResolution {
  outcome: DisputeOutcomeName;
  requesterCents: number;
  operatorCents: number;
  note: string | null;
}

export function disputeResolution(input: {
  outcome: string;
  amountAtStakeCents: number;
  requesterCents: number;
  operatorCents: number;
  note: string;
}): DisputeResolution {
  const problems: FieldError[] = [];
  const stake = input.amountAtStakeCents;
  if (!Number.isSafeInteger(stake) || stake < 0)
    throw new RangeError(`the amount at stake must be whole cents >= 0, got ${stake}`);
  const outcome = DISPUTE_OUTCOMES.find((o) => o === input.outcome.trim());
  if (!outcome)
    problems.push({
      field: "outcome",
      code: input.outcome.trim() === "" ? "missing_required" : "invalid_value",
      message: `outcome must be one of ${DISPUTE_OUTCOMES.join(", ")}`,
    });
  const amount = (field: string, cents: number) => {
    if (!Number.isSafeInteger(cents) || cents < 0) {
      problems.push({ field, code: "invalid_value", message: `${field} must be whole cents >= 0` });
      return false;
    }
    return true;
  };
  const amountsValid =
    amount("requester_amount_cents", input.requesterCents) &&
    amount("operator_amount_cents", input.operatorCents);
  let requesterCents = input.requesterCents;
  let operatorCents = input.operatorCents;
  if (outcome === "split" && amountsValid && requesterCents + operatorCents !== stake)
    problems.push({
      field: "requester_amount_cents",
      code: "invalid_value",
      message: `a split must add up to the amount at stake, ${stake} cents (got ${requesterCents + operatorCents})`,
    });
  if (outcome === "requester" || outcome === "operator") {
    const expected = outcome === "requester" ? [stake, 0] : [0, stake];
    const omitted = requesterCents === 0 && operatorCents === 0;
    if (amountsValid && !omitted && (requesterCents !== expected[0] || operatorCents !== expected[1]))
      problems.push({
        field: "requester_amount_cents",
        code: "invalid_value",
        message: `outcome ${outcome} moves all ${stake} cents to the ${outcome}; omit the amounts or use split`,
      });
    [requesterCents, operatorCents] = expected as [number, number];
  }
  const note = input.note.trim();
  if ([...note].length > RESOLUTION_NOTE_MAX_LENGTH)
    problems.push({
      field: "note",
      code: "invalid_value",
      message: `note must be at most ${RESOLUTION_NOTE_MAX_LENGTH} characters`,
    });
  if (problems.length > 0 || !outcome) throw new ValidationError("the resolution is invalid", problems);
  return { outcome, requesterCents, operatorCents, note: note === "" ? null : note };
}
