/**
 * Growth matrix (docs/assay-notes.md §7.4: OD600 kinetic reads every 10-30 min at a set
 * temperature with shaking, >= 3 replicate wells — covered by low_replicates) and custom-protocol
 * completeness beyond the hard requirements (durations, safety notes, a description).
 */
import type { RequestWarning } from "../../contracts.js";
import { num, warning, type Rule } from "./context.js";

export const growthRules: Rule = ({ draft }) => {
  const growth = draft.microbial_growth;
  if (!growth) return [];
  const out: RequestWarning[] = [];
  const reads = (growth.read_schedule ?? []).filter(
    (r): r is { time_hours: number } => typeof r?.time_hours === "number",
  );
  if (growth.endpoint_only) {
    if (draft.deliverables.required_processed_outputs.includes("GROWTH_RATE_LAG_MAXOD")) {
      out.push(
        warning(
          "microbial_growth.endpoint_only",
          "growth.endpoint_only_kinetics",
          "Growth rate, lag and max OD are requested but only an endpoint read is planned.",
          "Set endpoint_only to false and give a kinetic read_schedule (OD600 every 10-30 min).",
        ),
      );
    }
  } else if (reads.length === 0) {
    out.push(
      warning(
        "microbial_growth.read_schedule",
        "growth.read_schedule",
        "No read schedule stated.",
        "Give read_schedule entries: OD600 every 10-30 min for kinetic growth curves.",
      ),
    );
  } else {
    const times = [...new Set(reads.map((r) => r.time_hours))].sort((a, b) => a - b);
    const widest = Math.max(0, ...times.slice(1).map((t, i) => t - (times[i] as number)));
    if (times.length < 2 || widest > 0.5 + 1e-9) {
      out.push(
        warning(
          "microbial_growth.read_schedule",
          "growth.read_interval",
          times.length < 2
            ? "A single read time cannot give a growth curve."
            : `Reads are up to ${num(widest * 60)} min apart; growth-rate fits need reads every 10-30 min.`,
          "Read OD600 every 10-30 min over the incubation, with blank subtraction.",
        ),
      );
    }
  }
  if (growth.incubation_temperature_c === undefined) {
    out.push(
      warning(
        "microbial_growth.incubation_temperature_c",
        "growth.incubation_temperature",
        "The incubation temperature is not stated.",
        "State the incubation temperature; growth kinetics depend on it.",
      ),
    );
  }
  if (growth.aeration === undefined) {
    out.push(
      warning(
        "microbial_growth.aeration",
        "growth.aeration",
        "Aeration is not stated.",
        "State static, shaking or anaerobic incubation; kinetic plate reads are usually run with shaking.",
      ),
    );
  }
  return out;
};

export const customProtocolRules: Rule = ({ draft, paths }) => {
  const custom = draft.custom_protocol;
  if (!custom) return [];
  const at = paths.customProtocol ?? "custom_protocol";
  const out: RequestWarning[] = [];
  const steps = custom.steps ?? [];
  const withoutDuration = steps
    .map((s, i) => (s?.duration ? null : i + 1))
    .filter((n): n is number => n !== null);
  if (steps.length > 0 && withoutDuration.length > 0) {
    out.push(
      warning(
        `${at}.steps`,
        "custom.step_duration",
        `Step${withoutDuration.length === 1 ? "" : "s"} ${withoutDuration.join(", ")} ha${withoutDuration.length === 1 ? "s" : "ve"} no duration.`,
        "Give each step a duration {value, unit} so the lab can schedule and price the work.",
      ),
    );
  }
  // At least one step must carry them (../custom-protocol.ts); the others are only flagged.
  steps.forEach((step, index) => {
    if ((step?.critical_parameters ?? []).length > 0) return;
    out.push(
      warning(
        `${at}.steps[${index}].critical_parameters`,
        "custom.step_critical_parameters",
        `Step ${index + 1} lists no critical parameters.`,
        "List what must be controlled in this step (temperature, timing, volumes, order of addition), or leave it empty if nothing is critical.",
      ),
    );
  });
  const hazardous =
    draft.compliance.hazardous_chemicals || draft.materials_provided.some((m) => m?.hazardous === true);
  if (hazardous && (custom.safety_notes ?? []).length === 0) {
    out.push(
      warning(
        `${at}.safety_notes`,
        "custom.safety_notes",
        "Hazardous materials are involved but the protocol has no safety notes.",
        "Add safety_notes: handling, protective equipment and disposal for each hazard.",
      ),
    );
  }
  if (!custom.brief_description && !custom.protocol_attached) {
    out.push(
      warning(
        `${at}.brief_description`,
        "custom.description",
        "No description of the protocol's purpose and no attached protocol document.",
        "Add a brief_description (goal, readout, what a successful run looks like) or attach the protocol.",
      ),
    );
  }
  return out;
};
