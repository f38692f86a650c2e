import { type Logger, ValidationError } from "@petri/service-kit";
import { interpretIntake } from "../domain/interpret/index.js";
import type { Interpretation } from "../domain/plan.js";
import { providerOrNotFound } from "./translation.js";

/** A language model that reads an intake (cloud-labs interpret-llm), when one is configured. */
export interface IntakeInterpreter {
  readonly id: string;
  interpret(intake: unknown, rules: Interpretation, signal: AbortSignal): Promise<Interpretation>;
}

/**
 * POST /cloud-labs/interpret. The rules interpreter always reads the intake (an unreadable one
 * is 422 naming the fields); a configured language model then gives its reading, with the
 * rules' as reference. Should the model fail, the answer is the rules' reading with a note
 * saying so: the endpoint always answers, and `interpreter` says who did.
 */
export function makeInterpretIntake(deps: {
  llm?: IntakeInterpreter | undefined;
  logger: Logger;
  timeoutMs: number;
}) {
  return async function interpretIntakeUseCase(
    intake: unknown,
    providerId: string,
  ): Promise<{ interpretation: Interpretation; interpreter: string }> {
    const provider = providerId === "" ? undefined : providerOrNotFound(providerId);
    const read = interpretIntake(intake, provider);
    if ("problems" in read)
      throw new ValidationError(
        "the intake cannot be read",
        read.problems.map((p) => ({ field: p.field, code: "invalid_value", message: p.message })),
      );
    if (!deps.llm) return { interpretation: read.interpretation, interpreter: "rules" };
    try {
      const interpretation = await deps.llm.interpret(
        intake,
        read.interpretation,
        AbortSignal.timeout(deps.timeoutMs),
      );
      return { interpretation, interpreter: deps.llm.id };
    } catch (error) {
      deps.logger.warn(
        { err: error },
        "the language model could not interpret the intake; answering with the rules",
      );
      return {
        interpretation: {
          ...read.interpretation,
          notes: [
            ...read.interpretation.notes,
            "The language model did not answer; this is the rules interpreter's reading.",
          ],
        },
        interpreter: "rules",
      };
    }
  };
}
