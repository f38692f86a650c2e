/**
 * SANGER_PLASMID_VERIFICATION: one read per template and primer.
 *
 * Defaults: a plasmid template (the type's name), one template (the intake has no template
 * count), one read per primer (technical replicates 1: a repeated read of the same template
 * adds little; the requester can ask for more), and for plasmids the lab's universal M13
 * forward/reverse primers. PCR products and genomic templates have no universal primer, so
 * their primers must be named.
 */
import { z } from "zod";

import { PLAN_LIMITS, type SangerPlan } from "../../plan.js";
import { readBsl, readReplicates, readTitle, type CommonFields } from "../common.js";
import type { PlanContext } from "../context.js";
import { boundedList, optional, parseWith, requiredText } from "../fields.js";

const IUPAC = /^[ATCGRYSWKMBDHVN]+$/;

const sequence = () =>
  z
    .string()
    .transform((s) => s.replace(/\s+/g, "").toUpperCase())
    .pipe(
      z
        .string()
        .min(1)
        .max(PLAN_LIMITS.text)
        .regex(IUPAC, { error: "must use IUPAC nucleotide codes only (A C G T R Y S W K M B D H V N)" }),
    );

const sangerSchema = z.object({
  sanger: z.object({
    template_type: optional(z.enum(["plasmid", "pcr_product", "genomic"])),
    primers: optional(
      boundedList(
        z.object({ name: requiredText(100), sequence: optional(sequence()) }),
        PLAN_LIMITS.sanger_primers,
        "primers",
      ),
    ),
    expected_insert_size_bp: optional(z.int().min(1).max(10_000_000)),
  }),
});

export function buildSangerPlan(
  intake: Record<string, unknown>,
  common: CommonFields,
  ctx: PlanContext,
): SangerPlan | undefined {
  const parsed = parseWith(sangerSchema, intake);
  if ("problems" in parsed) {
    ctx.problems.push(...parsed.problems);
    return undefined;
  }
  const section = parsed.data.sanger;
  const templateType = ctx.pick(
    section.template_type,
    "plasmid",
    "Template type not stated: plasmid assumed.",
  );
  ctx.note("One template assumed (the intake does not count templates).");

  const stated = section.primers ?? [];
  const names = new Set<string>();
  stated.forEach((primer, index) => {
    const key = primer.name.toLowerCase();
    if (names.has(key)) ctx.problem(`sanger.primers[${index}].name`, `${primer.name} is listed twice`);
    names.add(key);
  });
  let primers: SangerPlan["primers"] = stated.map((p) => ({ name: p.name, sequence: p.sequence ?? null }));
  ctx.key(primers.length > 0);
  if (primers.length === 0) {
    if (templateType === "plasmid") {
      primers = [
        { name: "M13F", sequence: null },
        { name: "M13R", sequence: null },
      ];
      ctx.note("No primers: the lab's universal M13 forward and reverse primers assumed (both strands).");
    } else {
      ctx.problem(
        "sanger.primers",
        `is required for a ${templateType === "pcr_product" ? "PCR product" : "genomic"} template: name the sequencing primers (no universal primer fits)`,
      );
    }
  }
  const replicates = readReplicates(common, ctx, {
    technical: 1,
    biological: 1,
    reason: "(one read per template and primer)",
  });
  const bsl = readBsl(common, ctx);
  if (ctx.problems.length > 0) return undefined;

  const templates = 1;
  const title = readTitle(
    common,
    ctx,
    `Sanger verification of a ${templateType === "pcr_product" ? "PCR product" : `${templateType} template`}`,
  );
  return {
    experiment_type: "SANGER_PLASMID_VERIFICATION",
    title,
    replicates,
    bsl,
    plate_format: ctx.preferredPlate(),
    detection_method: "sanger_sequencing",
    sample_count: templates * primers.length * replicates.technical * replicates.biological,
    template_type: templateType,
    templates,
    primers,
    expected_insert_size_bp: section.expected_insert_size_bp ?? null,
  };
}
