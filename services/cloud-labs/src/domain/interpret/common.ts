/**
 * The parts of an intake every plan type reads: title, compliance.bsl and replicates.
 *
 * Spellings accepted (docs/intake-model.md): replicates at the top level or in
 * protocol.replicates (docs/api.md), each as technical / technical_replicates and biological /
 * biological_replicates; equal values sent twice are fine, different ones are a problem at the
 * second place. compliance.bsl as BSL1, BSL-1, bsl 1, BSL_1 or the bare level (1 or "1").
 */
import { z } from "zod";

import { PLAN_LIMITS, type BslLevel, type Replicates } from "../plan.js";
import type { PlanContext } from "./context.js";
import { optional, optionalText } from "./fields.js";

const replicateCount = () => optional(z.int().min(1));

export const replicatesSchema = z.object({
  technical: replicateCount(),
  technical_replicates: replicateCount(),
  biological: replicateCount(),
  biological_replicates: replicateCount(),
});

export const commonSchema = z.object({
  title: optionalText(),
  compliance: optional(z.object({ bsl: optional(z.union([z.string(), z.number()])) })),
  replicates: optional(replicatesSchema),
  protocol: optional(
    z.object({
      type: optional(z.string()),
      replicates: optional(replicatesSchema),
    }),
  ),
});

export type CommonFields = z.output<typeof commonSchema>;

/** The plan's biosafety level; BSL-3 and above, or an unreadable level, is a problem. */
export function readBsl(common: CommonFields, ctx: PlanContext): BslLevel {
  const stated = common.compliance?.bsl;
  if (stated === undefined) {
    ctx.key(false);
    ctx.note(
      "Biosafety level not stated: BSL-1 assumed; state compliance.bsl BSL2 if an organism or material needs it.",
    );
    return "BSL-1";
  }
  ctx.key(true);
  const match =
    typeof stated === "number"
      ? Number.isInteger(stated)
        ? [String(stated), String(stated)]
        : null
      : /^\s*(?:bsl[\s_-]*)?(\d+)\s*$/i.exec(stated);
  const level = match ? Number(match[1]) : NaN;
  if (level === 1 || level === 2) return `BSL-${level}`;
  if (level >= 3 && level <= 4) {
    ctx.problem(
      "compliance.bsl",
      `BSL-${level} work is not accepted: cloud labs run BSL-1 and BSL-2 only (bsl_level_exceeded)`,
    );
  } else {
    ctx.problem("compliance.bsl", "must be BSL1 or BSL2 (also written BSL-1, BSL-2)");
  }
  return "BSL-1";
}

function pickSpelling(
  candidates: ReadonlyArray<readonly [path: string, value: number | undefined]>,
  ctx: PlanContext,
): { value: number; path: string } | undefined {
  let chosen: { value: number; path: string } | undefined;
  for (const [path, value] of candidates) {
    if (value === undefined) continue;
    if (!chosen) chosen = { value, path };
    else if (chosen.value !== value) {
      ctx.problem(
        path,
        `(${value}) conflicts with ${chosen.path} (${chosen.value}): send one, or equal values`,
      );
    }
  }
  return chosen;
}

export interface ReplicateDefaults {
  technical: number;
  biological: number;
  /** Why this default, appended to the note (e.g. "(CLSI M07 practice)"). */
  reason?: string;
}

export function readReplicates(
  common: CommonFields,
  ctx: PlanContext,
  defaults: ReplicateDefaults = { technical: 3, biological: 1 },
): Replicates {
  const top = common.replicates;
  const inProtocol = common.protocol?.replicates;
  const technical = pickSpelling(
    [
      ["replicates.technical", top?.technical],
      ["replicates.technical_replicates", top?.technical_replicates],
      ["protocol.replicates.technical_replicates", inProtocol?.technical_replicates],
      ["protocol.replicates.technical", inProtocol?.technical],
    ],
    ctx,
  );
  const biological = pickSpelling(
    [
      ["replicates.biological", top?.biological],
      ["replicates.biological_replicates", top?.biological_replicates],
      ["protocol.replicates.biological_replicates", inProtocol?.biological_replicates],
      ["protocol.replicates.biological", inProtocol?.biological],
    ],
    ctx,
  );
  if (technical && technical.value > PLAN_LIMITS.replicates_technical) {
    ctx.problem(
      technical.path,
      `at most ${PLAN_LIMITS.replicates_technical} technical replicates are supported`,
    );
  }
  if (biological && biological.value > PLAN_LIMITS.replicates_biological) {
    ctx.problem(
      biological.path,
      `at most ${PLAN_LIMITS.replicates_biological} biological replicates (independent runs) are supported`,
    );
  }
  const reason = defaults.reason ? ` ${defaults.reason}` : "";
  return {
    technical: ctx.pick(
      technical?.value,
      defaults.technical,
      `Technical replicates not stated: ${defaults.technical} assumed${reason}.`,
    ),
    biological: ctx.pick(
      biological?.value,
      defaults.biological,
      `Biological replicates not stated: ${defaults.biological} independent run${defaults.biological === 1 ? "" : "s"} assumed.`,
    ),
  };
}

/** The stated title, or one made from the plan (our text, so clipping it is harmless). */
export function readTitle(common: CommonFields, ctx: PlanContext, derived: string): string {
  if (common.title) return common.title;
  const title =
    derived.length <= PLAN_LIMITS.text ? derived : `${derived.slice(0, PLAN_LIMITS.text - 3).trimEnd()}...`;
  ctx.note(`No title: "${title}" used.`);
  return title;
}

/** "a", "a and b", "a, b and c". */
export function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
