/** Helpers for the unit tests of the domain's input checks. */
import { ValidationError } from "@petri/service-kit";

/** The fields named by the ValidationError `fn` throws, in order (fails the test when it throws none). */
export function refusedFields(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.fieldErrors.map((e) => e.field);
    throw error;
  }
  throw new Error("expected a ValidationError");
}
