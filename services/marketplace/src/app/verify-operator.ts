import { InvalidStateError, type Principal, ValidationError } from "@petri/service-kit";
import {
  type VerificationRecord,
  isVerificationComplete,
  validateVerificationRecord,
  verificationGaps,
  withVerifiedEquipment,
} from "../domain/operators/verification.js";
import { parseJsonObject } from "../domain/text.js";
import { lockOperator, saveOperatorChange, transitionOrThrow } from "./operator-changes.js";
import { type ChangingDeps, type OperatorView, viewOf } from "./operator-view.js";

/** Verification re-done on an active lab (new competencies, equipment) keeps it active. */
const VERIFIABLE_FROM = ["pending_verification", "active"];

function validRecord(verificationJson: string): VerificationRecord {
  const result = validateVerificationRecord(parseJsonObject("verification_json", verificationJson));
  if (!result.ok)
    throw new ValidationError(
      "the verification record is invalid",
      result.errors.map((e) => ({ field: e.path, code: e.code, message: e.message })),
    );
  return result.value;
}

/**
 * Staff verify an operator with a complete verification record (identity, institution,
 * supervisor approval, at least one competency: else 422 naming what is missing):
 * pending_verification -> active. Verifying an active operator again replaces its record and
 * keeps it active; that is how capabilities it declared after its first verification come to
 * count. Any other status is 409 invalid_state. The stored record names the staff member and,
 * when the equipment is verified, the equipment names confirmed (by default every name the
 * profile declares now).
 */
export function makeVerifyOperator(deps: ChangingDeps) {
  return async function verifyOperator(
    principal: Principal,
    input: { operatorId: string; verificationJson: string },
  ): Promise<OperatorView> {
    const submitted = validRecord(input.verificationJson);
    const now = deps.clock.now();
    const view = await deps.unitOfWork.run(async (trx) => {
      const current = await lockOperator(trx, input.operatorId);
      let status = current.status;
      if (current.status === "active") {
        if (!isVerificationComplete(submitted)) {
          const message = `verification is incomplete: ${verificationGaps(submitted).join("; ")}`;
          throw new ValidationError(message, [
            { field: "verification_json", code: "invalid_value", message },
          ]);
        }
      } else if (current.status === "pending_verification") {
        status = transitionOrThrow(
          current,
          { type: "verify", verification: submitted },
          now,
          "verification_json",
        ).status;
      } else {
        throw new InvalidStateError(
          `cannot verify an operator whose status is ${current.status}`,
          current.status,
          VERIFIABLE_FROM,
        );
      }
      const verification: VerificationRecord = {
        ...withVerifiedEquipment(submitted, current.profile),
        verified_by: submitted.verified_by ?? principal.accountId,
      };
      const updated = await saveOperatorChange(trx, current, {
        status,
        verification,
        statusReason: null,
        updatedAt: now,
      });
      return viewOf(trx, updated);
    });
    return view;
  };
}
