/**
 * The safety checks of intake: what makes a request rejected (a body too large to scan, a
 * controlled substance, BSL-3 and above) and what sends it to staff review (human subjects).
 */
import { normalizeBsl } from "../bsl.js";
import { formatPath } from "../paths.js";
import { findControlledSubstances, findHumanSubjectPhrases } from "../safety/scan.js";
import { MAX_DEPTH, type WalkResult } from "../safety/walk.js";
import type { Findings } from "./findings.js";

/** A body too deep or too large to check completely is refused (nothing may go unscanned). */
export function checkScanLimits(walked: WalkResult, findings: Findings): void {
  for (const path of walked.tooDeep) {
    findings.errors.push({
      path: formatPath(path),
      code: "invalid_value",
      message: `${path.length === 0 ? "the request" : formatPath(path)} is nested too deeply (more than ${MAX_DEPTH} levels)`,
    });
  }
  if (walked.truncated) {
    findings.errors.push({
      path: "",
      code: "invalid_value",
      message: "The request contains too many values to check",
    });
  }
}

/** Every string anywhere in the body, before anything can stop the check. */
export function checkControlledSubstances(input: unknown, walked: WalkResult, findings: Findings): void {
  for (const hit of findControlledSubstances(input, walked.strings)) {
    const path = formatPath(hit.path);
    findings.safety.push({
      flag: "controlled_substance",
      path,
      message: `${hit.substance.name} (${hit.substance.schedule}), matched "${hit.matched}"`,
    });
    findings.errors.push({
      path,
      code: "safety_violation",
      message: `${hit.substance.name} is a controlled substance (${hit.substance.schedule}); Petri does not accept requests involving it`,
    });
  }
}

export function checkBiosafetyLevel(sentBsl: unknown, findings: Findings): void {
  const bsl = normalizeBsl(sentBsl);
  if (bsl !== "BSL-3" && bsl !== "BSL-4") return;
  findings.safety.push({
    flag: "bsl_level_exceeded",
    path: "compliance.bsl",
    message: `${bsl} requested; Petri supports BSL-1 and BSL-2 only`,
  });
  findings.errors.push({
    path: "compliance.bsl",
    code: "safety_violation",
    message: `${bsl} work is not accepted: Petri supports BSL-1 and BSL-2 only`,
  });
}

export function flagHumanSubjects(
  input: unknown,
  humanDerived: boolean,
  walked: WalkResult,
  findings: Findings,
): void {
  for (const hit of findHumanSubjectPhrases(input, humanDerived, walked.strings)) {
    findings.safety.push({
      flag: "human_subjects",
      path: formatPath(hit.path),
      message: `The request appears to involve human subjects ("${hit.phrase}"); staff review it first`,
    });
  }
}
