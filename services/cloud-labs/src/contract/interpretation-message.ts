/**
 * The interpretation of an intake as petri.cloudlabs.v1.IntakeInterpretation, beside its JSON
 * text (D355): typed when the message writes back exactly the same REST JSON, absent values
 * as null, so the typed field never changes what REST shows.
 */
import { type IntakeInterpretation, IntakeInterpretationSchema } from "@petri/contracts/cloudlabs";
import { ABSENT_AS_NULL, exactRestMessage } from "@petri/contracts/rest-json";
import type { Interpretation } from "../domain/plan.js";

export function interpretationForms(interpretation: Interpretation): {
  interpretation: IntakeInterpretation | undefined;
  interpretationJson: string;
} {
  return {
    interpretation: exactRestMessage(IntakeInterpretationSchema, interpretation, ABSENT_AS_NULL),
    interpretationJson: JSON.stringify(interpretation),
  };
}
