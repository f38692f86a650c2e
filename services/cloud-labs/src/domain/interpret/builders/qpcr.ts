/**
 * QPCR_EXPRESSION (docs/assay-notes.md 5.6 and 7.3).
 *
 * Samples: qpcr.number_of_samples names how many there are; with qpcr.conditions they are
 * shared out evenly and named "<condition>-<n>", otherwise named "sample-<n>". With conditions
 * but no number, each condition gets one sample per biological replicate. Biological replicates
 * are therefore already samples, so sample_count (reactions) does not multiply by them again.
 *
 * Defaults: SYBR Green, 20 µL reactions, 40 cycles (skeleton C); GAPDH and ACTB as reference
 * genes only when none is given (MIQE asks for at least two).
 */
import { z } from "zod";

import { PLAN_LIMITS, type QpcrPlan } from "../../plan.js";
import { listWords, readBsl, readReplicates, readTitle, type CommonFields } from "../common.js";
import type { PlanContext } from "../context.js";
import { boundedList, optional, parseWith, requiredText } from "../fields.js";

const geneSymbol = () => requiredText(50);

const qpcrSchema = z.object({
  qpcr: z.object({
    chemistry: optional(z.enum(["SYBR_GREEN", "TAQMAN", "OTHER"])),
    targets: boundedList(z.object({ gene_symbol: geneSymbol() }), PLAN_LIMITS.qpcr_targets, "targets", 1),
    housekeeping_genes: optional(
      boundedList(geneSymbol(), PLAN_LIMITS.qpcr_reference_genes, "reference genes"),
    ),
    number_of_samples: optional(z.int().min(1)),
    conditions: optional(
      boundedList(z.object({ name: requiredText() }), PLAN_LIMITS.qpcr_samples, "conditions"),
    ),
  }),
});

const DEFAULT_REFERENCES = ["GAPDH", "ACTB"];

function distinctNames(names: readonly string[]): { names: string[]; repeated: number } {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of names) {
    const key = name.toUpperCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return { names: out, repeated: names.length - out.length };
}

function sampleNames(
  count: number | undefined,
  conditions: readonly string[],
  biological: number,
  ctx: PlanContext,
): string[] | undefined {
  if (count === undefined && conditions.length === 0) {
    ctx.problem(
      "qpcr.number_of_samples",
      "is required: say how many samples there are (or list qpcr.conditions)",
    );
    return undefined;
  }
  const total = count ?? conditions.length * biological;
  if (total > PLAN_LIMITS.qpcr_samples) {
    ctx.problem(
      count === undefined ? "qpcr.conditions" : "qpcr.number_of_samples",
      `at most ${PLAN_LIMITS.qpcr_samples} samples are supported (got ${total})`,
    );
    return undefined;
  }
  if (count === undefined) {
    ctx.note(`Number of samples not stated: one per condition and biological replicate (${total}).`);
  }
  if (conditions.length > 0 && total % conditions.length === 0) {
    const each = total / conditions.length;
    return conditions.flatMap((condition) => Array.from({ length: each }, (_, i) => `${condition}-${i + 1}`));
  }
  if (conditions.length > 0) {
    ctx.note(
      `${total} samples do not divide evenly among ${conditions.length} conditions: samples named sample-1 ... sample-${total}.`,
    );
  }
  return Array.from({ length: total }, (_, i) => `sample-${i + 1}`);
}

export function buildQpcrPlan(
  intake: Record<string, unknown>,
  common: CommonFields,
  ctx: PlanContext,
): QpcrPlan | undefined {
  const parsed = parseWith(qpcrSchema, intake);
  if ("problems" in parsed) {
    ctx.problems.push(...parsed.problems);
    return undefined;
  }
  const section = parsed.data.qpcr;
  const targets = distinctNames(section.targets.map((t) => t.gene_symbol));
  if (targets.repeated > 0) ctx.note(`${targets.repeated} repeated target gene(s) counted once.`);
  ctx.key(true); // targets

  const stated = distinctNames(section.housekeeping_genes ?? []);
  const references = ctx.pick(
    stated.names.length > 0 ? stated.names : undefined,
    DEFAULT_REFERENCES,
    "No reference genes: GAPDH and ACTB assumed (MIQE: at least two validated reference genes; check their stability in your samples).",
  );
  const clash = references.filter((gene) =>
    targets.names.some((t) => t.toUpperCase() === gene.toUpperCase()),
  );
  if (clash.length > 0) {
    ctx.problem(
      "qpcr.housekeeping_genes",
      `${listWords(clash)} cannot be both a target and a reference gene`,
    );
  }
  const chemistry = ctx.pick(section.chemistry, "SYBR_GREEN", "Chemistry not stated: SYBR Green assumed.");
  ctx.note("Reactions of 20 µL and 40 cycles planned (the standard qPCR program).");

  const replicates = readReplicates(common, ctx);
  const conditions = distinctNames((section.conditions ?? []).map((c) => c.name));
  if (conditions.repeated > 0) ctx.note(`${conditions.repeated} repeated condition name(s) counted once.`);
  ctx.key(section.number_of_samples !== undefined || conditions.names.length > 0);
  const samples = sampleNames(section.number_of_samples, conditions.names, replicates.biological, ctx);
  const bsl = readBsl(common, ctx);
  if (ctx.problems.length > 0 || !samples) return undefined;

  const title = readTitle(common, ctx, `${listWords(targets.names)} expression by qPCR`);
  return {
    experiment_type: "QPCR_EXPRESSION",
    title,
    replicates,
    bsl,
    plate_format: ctx.preferredPlate(),
    detection_method: "qpcr_fluorescence",
    sample_count: samples.length * (targets.names.length + references.length) * replicates.technical,
    targets: targets.names,
    reference_genes: references,
    chemistry,
    samples,
    reaction_volume_ul: 20,
    cycles: 40,
  };
}
