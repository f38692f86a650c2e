import { ValidationError } from "@petri/service-kit";
import { type Translation, translateIntake } from "./translation.js";

export type IntakeValidation =
  | {
      valid: true;
      providerId: string;
      warnings: string[];
      estimatedCostCents: number;
      turnaroundDays: { min: number; max: number };
    }
  | { valid: false; providerId: string; errors: { field: string; message: string }[] };

/**
 * POST /cloud-labs/validate: whether the provider can run the intake, by translating it (so
 * every check translation makes, down to wells and volumes in the generated protocol, is
 * applied). Never refuses a readable request: refusals become errors; an unknown provider is 404.
 */
export function validateIntakeUseCase(intake: unknown, providerId: string): IntakeValidation {
  let translation: Translation;
  try {
    translation = translateIntake(intake, providerId);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return {
      valid: false,
      providerId,
      errors: error.fieldErrors.map((e) => ({ field: e.field, message: e.message })),
    };
  }
  return {
    valid: true,
    providerId,
    warnings: translation.warnings,
    estimatedCostCents: translation.estimatedCostCents,
    turnaroundDays: translation.turnaroundDays,
  };
}
