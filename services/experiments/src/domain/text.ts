/** Limits of the experiments service's free-text fields (the checks are service-kit's). */
export { optionalText, requiredText } from "@petri/service-kit";

export const REASON_MAX_LENGTH = 1_000;
export const NOTE_MAX_LENGTH = 2_000;
