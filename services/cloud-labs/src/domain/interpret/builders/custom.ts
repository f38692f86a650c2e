/**
 * CUSTOM: the requester's own steps, from custom_protocol (docs/intake-model.md) or
 * protocol.custom_protocol (docs/api.md); the same protocol sent in both places is fine, two
 * different ones are a problem. A protocol design request has no steps yet, so it cannot be
 * planned for a cloud lab.
 *
 * The read-out is taken from the words of the steps and the equipment list (absorbance, OD600,
 * "590 nm", luminescence, fluorescence, imaging...); when several are named the provider's is
 * preferred, when none, absorbance is assumed and said so.
 */
import { z } from "zod";

import { PLAN_LIMITS, type CustomPlan, type DetectionMethod } from "../../plan.js";
import { readBsl, readReplicates, readTitle, type CommonFields } from "../common.js";
import type { PlanContext } from "../context.js";
import { boundedList, optional, optionalText, parseWith, positiveNumber, requiredText } from "../fields.js";
import { toCelsius, toMinutes } from "../units.js";

const ABSOLUTE_ZERO = { C: -273.15, F: -459.67, K: 0 } as const;

const stepSchema = z.object({
  action: requiredText(PLAN_LIMITS.step_text),
  duration: optional(
    z.object({ value: positiveNumber(), unit: z.enum(["seconds", "minutes", "hours", "days"]) }),
  ),
  temperature: optional(
    z
      .object({ value: z.number(), unit: z.enum(["C", "F", "K"]) })
      .refine((t) => t.value >= ABSOLUTE_ZERO[t.unit], { error: "must not be below absolute zero" }),
  ),
});

const customProtocolSchema = z.object({
  protocol_title: optionalText(),
  title: optionalText(),
  steps: boundedList(stepSchema, PLAN_LIMITS.custom_steps, "steps", 1),
  equipment_required: optional(boundedList(z.object({ name: optionalText() }), 100, "equipment items")),
});

// The order is the preference when several read-outs are named.
const READOUT_WORDS: ReadonlyArray<readonly [DetectionMethod, RegExp]> = [
  ["qpcr_fluorescence", /\bq-?pcr\b|real[- ]time pcr/i],
  ["sanger_sequencing", /\bsanger\b|\bsequenc/i],
  ["luminescence", /lumines|celltiter-glo/i],
  ["fluorescence", /fluoresc|resazurin|alamar/i],
  ["absorbance", /absorbance|optical density|\bod ?\d{3}\b|\ba\d{3}\b|\b\d{3} ?nm\b|plate reader/i],
  ["imaging", /\bimag|microscop|photograph/i],
];

type ParsedProtocol = z.output<typeof customProtocolSchema>;

const present = (value: unknown) => value !== undefined && value !== null;

function sameProtocol(a: ParsedProtocol, b: ParsedProtocol): boolean {
  // Both are parsed (shallow, known keys only), so comparing their JSON is cheap and bounded.
  const canonical = (p: ParsedProtocol) =>
    JSON.stringify({
      title: p.protocol_title ?? p.title ?? null,
      steps: p.steps,
      equipment: p.equipment_required ?? [],
    });
  return canonical(a) === canonical(b);
}

/**
 * The custom protocol, parsed from where it was sent, or undefined with problems recorded.
 */
function locate(intake: Record<string, unknown>, ctx: PlanContext): ParsedProtocol | undefined {
  const protocol = intake.protocol;
  const protocolObject =
    protocol !== null && typeof protocol === "object" && !Array.isArray(protocol)
      ? (protocol as Record<string, unknown>)
      : undefined;
  const sent: { raw: unknown; at: string[] }[] = [];
  if (present(intake.custom_protocol)) sent.push({ raw: intake.custom_protocol, at: ["custom_protocol"] });
  if (present(protocolObject?.custom_protocol)) {
    sent.push({ raw: protocolObject?.custom_protocol, at: ["protocol", "custom_protocol"] });
  }
  if (sent.length === 0) {
    ctx.problem(
      "custom_protocol",
      protocolObject?.type === "protocol_design_requested"
        ? "a protocol design request has no steps yet: cloud labs run explicit steps, so send custom_protocol once the design is agreed"
        : "is required for CUSTOM: send custom_protocol (or protocol.custom_protocol) with its steps",
    );
    return undefined;
  }
  const parsed: ParsedProtocol[] = [];
  for (const { raw, at } of sent) {
    const result = parseWith(customProtocolSchema, raw, at);
    if ("problems" in result) ctx.problems.push(...result.problems);
    else parsed.push(result.data);
  }
  if (parsed.length !== sent.length) return undefined;
  const [first, second] = parsed as [ParsedProtocol, ...ParsedProtocol[]];
  if (second && !sameProtocol(first, second)) {
    ctx.problem(
      "protocol.custom_protocol",
      "differs from custom_protocol: they are the same field; send the protocol once",
    );
    return undefined;
  }
  return first;
}

function readout(texts: readonly string[], ctx: PlanContext): DetectionMethod {
  const named = READOUT_WORDS.filter(([, words]) => texts.some((t) => words.test(t))).map(([m]) => m);
  ctx.key(named.length > 0);
  if (named.length === 0) {
    ctx.note("No read-out named in the steps: absorbance (plate reader) assumed.");
    return "absorbance";
  }
  const [first, ...rest] = named as [DetectionMethod, ...DetectionMethod[]];
  return ctx.preferredDetection([first, ...rest]);
}

export function buildCustomPlan(
  intake: Record<string, unknown>,
  common: CommonFields,
  ctx: PlanContext,
): CustomPlan | undefined {
  const protocol = locate(intake, ctx);
  if (!protocol) return undefined;
  ctx.key(true); // steps
  const steps: CustomPlan["steps"] = protocol.steps.map((step) => ({
    action: step.action,
    duration_minutes: step.duration
      ? Math.round(toMinutes(step.duration.value, step.duration.unit) * 100) / 100
      : null,
    temperature_c: step.temperature
      ? Math.round(toCelsius(step.temperature.value, step.temperature.unit) * 100) / 100
      : null,
  }));
  const detection = readout(
    [
      ...protocol.steps.map((s) => s.action),
      ...(protocol.equipment_required ?? []).flatMap((e) => (e.name ? [e.name] : [])),
    ],
    ctx,
  );
  const replicates = readReplicates(common, ctx);
  const bsl = readBsl(common, ctx);
  if (ctx.problems.length > 0) return undefined;

  const title = protocol.protocol_title ?? protocol.title;
  return {
    experiment_type: "CUSTOM",
    title: title && !common.title ? title : readTitle(common, ctx, "Custom protocol"),
    replicates,
    bsl,
    plate_format: ctx.preferredPlate(),
    detection_method: detection,
    sample_count: steps.length * replicates.technical * replicates.biological,
    steps,
  };
}
