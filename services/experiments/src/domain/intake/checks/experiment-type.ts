import { EXPERIMENT_TYPES, type ExperimentTypeName } from "@petri/contracts/vocabulary";
import type { Findings } from "./findings.js";

/** Case-insensitive experiment type ("mic_mbc_assay", "MIC-MBC-ASSAY" -> MIC_MBC_ASSAY). */
export function parseExperimentType(value: unknown): ExperimentTypeName | null {
  if (typeof value !== "string") return null;
  const canonical = value
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, "_");
  return EXPERIMENT_TYPES.find((t) => t === canonical) ?? null;
}

/** Reads experiment_type as sent; reports it missing or unknown. */
export function checkExperimentType(sent: unknown, findings: Findings): ExperimentTypeName | undefined {
  if (sent === undefined) {
    findings.missing.push({
      path: "experiment_type",
      message: `experiment_type is required: one of ${EXPERIMENT_TYPES.join(", ")}`,
    });
    return undefined;
  }
  const parsed = parseExperimentType(sent);
  if (parsed) return parsed;
  findings.errors.push({
    path: "experiment_type",
    code: "invalid_experiment_type",
    message: `${
      typeof sent === "string"
        ? `Unknown experiment_type ${JSON.stringify(sent.slice(0, 100))}`
        : `experiment_type must be a string, not ${Array.isArray(sent) ? "a list" : typeof sent}`
    }: use one of ${EXPERIMENT_TYPES.join(", ")}`,
  });
  return undefined;
}
