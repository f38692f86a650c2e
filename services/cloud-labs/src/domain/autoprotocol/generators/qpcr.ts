import type { QpcrPlan } from "../../plan.js";
import { ProtocolNotExpressibleError } from "../errors.js";
import type { ContainerType } from "../containers.js";
import { WellAllocator, assayPlate, maxVolumeOf, requireWellsOnPlate } from "../layout.js";
import { type ProtocolBuilder, mixVolumeFor, resourceId } from "../protocol-builder.js";
import { MIN_TRANSFER_UL } from "../serial-dilution.js";
import { celsius, gForce, microliters, minutes, seconds } from "../quantities.js";

/**
 * Reaction make-up (skeleton C: 2x master mix half the volume, 2 µL cDNA in 20 µL, water to
 * volume): master mix 1/2, primer mix (10x) 1/10, template 1/10, water the rest; an NTC gets water
 * instead of template.
 */
const FRACTIONS = { masterMix: 0.5, primers: 0.1, template: 0.1 } as const;

/**
 * The reporter dye the cycler reads. A TaqMan probe's reporter is not in the plan; FAM is our
 * assumption (stated in the notes) until the plan carries it.
 */
const DYE = { SYBR_GREEN: "SYBR", TAQMAN: "FAM" } as const;

/** qPCR (skeleton C): genes x (samples + NTC) x technical replicates on one PCR plate. */
export function buildQpcrProtocol(plan: QpcrPlan, builder: ProtocolBuilder): void {
  if (plan.chemistry === "OTHER") {
    throw new ProtocolNotExpressibleError([
      { field: "chemistry", message: "the dye the cycler should read is unknown for chemistry OTHER" },
    ]);
  }
  const dye = DYE[plan.chemistry];
  const plateType = assayPlate(plan.plate_format, "pcr");
  const genes = [...plan.targets, ...plan.reference_genes];
  requireExpressible(plan, plateType, genes);
  const technical = plan.replicates.technical;
  requireWellsOnPlate("plate_format", genes.length * (plan.samples.length + 1) * technical, plateType);

  const plate = builder.fresh("qpcr_plate", plateType, "discard");
  genes.forEach((_, g) => builder.existing(`primers_${g + 1}`, { store: "cold_20" }));
  plan.samples.forEach((_, s) => builder.existing(`sample_${s + 1}`, { store: "cold_20" }));
  const reactions = placeReactions(plan, builder, plate, plateType, genes);
  assembleReactions(plan, builder, plate, reactions);
  runCycler(plan, builder, plate, reactions, dye);
  noteQpcrContainers(plan, builder);
}

interface Reaction {
  well: number;
  gene: number;
  /** Index into plan.samples, or null for the no-template control. */
  sample: number | null;
}

/** A template volume the liquid handler can move, a reaction that fits a well, something to measure. */
function requireExpressible(plan: QpcrPlan, plateType: ContainerType, genes: readonly string[]): void {
  const volume = plan.reaction_volume_ul;
  const problems: { field: string; message: string }[] = [];
  if (volume * FRACTIONS.template < MIN_TRANSFER_UL) {
    problems.push({
      field: "reaction_volume_ul",
      message: `a ${volume} µL reaction leaves less than ${MIN_TRANSFER_UL} µL for the template`,
    });
  }
  if (volume > maxVolumeOf(plateType)) {
    problems.push({
      field: "reaction_volume_ul",
      message: `a ${volume} µL reaction does not fit a ${plateType.shortname} well (${plateType.maxVolumeUl} µL)`,
    });
  }
  if (genes.length === 0) problems.push({ field: "targets", message: "no gene to measure" });
  if (plan.samples.length === 0) problems.push({ field: "samples", message: "no sample to measure" });
  if (problems.length > 0) throw new ProtocolNotExpressibleError(problems);
}

/** Every gene x (each sample, then the NTC) x technical replicate, labelled in that order. */
function placeReactions(
  plan: QpcrPlan,
  builder: ProtocolBuilder,
  plate: string,
  plateType: ContainerType,
  genes: readonly string[],
): Reaction[] {
  const allocator = new WellAllocator(plateType);
  const reactions: Reaction[] = [];
  genes.forEach((gene, g) => {
    for (const sample of [...plan.samples.map((_, s) => s), null]) {
      for (let t = 1; t <= plan.replicates.technical; t += 1) {
        const well = allocator.takeOne();
        reactions.push({ well, gene: g, sample });
        const what = sample === null ? "NTC (water)" : (plan.samples[sample] as string);
        const role = g < plan.targets.length ? "target" : "reference";
        builder.label(plate, well, `${gene} (${role}) | ${what} | technical ${t}`);
      }
    }
  });
  return reactions;
}

/** Master mix and water, then primers, then template (none in the NTC). */
function assembleReactions(
  plan: QpcrPlan,
  builder: ProtocolBuilder,
  plate: string,
  reactions: readonly Reaction[],
): void {
  const volume = plan.reaction_volume_ul;
  const masterMixUl = volume * FRACTIONS.masterMix;
  const primersUl = volume * FRACTIONS.primers;
  const templateUl = volume * FRACTIONS.template;
  const masterMix = resourceId(
    plan.chemistry === "SYBR_GREEN" ? "SYBR Green qPCR master mix 2x" : "TaqMan qPCR master mix 2x",
  );
  builder.push(
    {
      op: "provision",
      resource_id: masterMix,
      to: reactions.map((r) => ({ well: builder.well(plate, r.well), volume: microliters(masterMixUl) })),
    },
    {
      op: "provision",
      resource_id: resourceId("nuclease-free water"),
      to: reactions.map((r) => ({
        well: builder.well(plate, r.well),
        volume: microliters(volume - masterMixUl - primersUl - (r.sample === null ? 0 : templateUl)),
      })),
    },
  );
  for (const r of reactions) {
    builder.transfer(builder.well(`primers_${r.gene + 1}`, 0), builder.well(plate, r.well), primersUl);
  }
  for (const r of reactions) {
    if (r.sample === null) continue;
    builder.transfer(
      builder.well(`sample_${r.sample + 1}`, 0),
      builder.well(plate, r.well),
      templateUl,
      mixVolumeFor(volume),
    );
  }
}

/** Seal, spin, cycle and read the dye (with a melt curve for SYBR Green). */
function runCycler(
  plan: QpcrPlan,
  builder: ProtocolBuilder,
  plate: string,
  reactions: readonly Reaction[],
  dye: (typeof DYE)[keyof typeof DYE],
): void {
  const volume = plan.reaction_volume_ul;
  builder.push(
    { op: "seal", object: plate, type: "ultra-clear" },
    { op: "spin", object: plate, acceleration: gForce(1000), duration: minutes(1) },
    {
      op: "thermocycle",
      object: plate,
      volume: microliters(volume),
      lid_temperature: celsius(105),
      dataref: "qpcr_run",
      dyes: { [dye]: reactions.map((r) => r.well) },
      groups: [
        { cycles: 1, steps: [{ temperature: celsius(95), duration: minutes(2) }] },
        {
          cycles: plan.cycles,
          steps: [
            { temperature: celsius(95), duration: seconds(15), read: false },
            { temperature: celsius(60), duration: minutes(1), read: true },
          ],
        },
      ],
      ...(plan.chemistry === "SYBR_GREEN"
        ? {
            melting: {
              start: celsius(65),
              end: celsius(95),
              increment: celsius(0.5),
              rate: seconds(5),
            },
          }
        : {}),
    },
  );
}

/** What the lab must prepare in the containers the document only names, and what is left out. */
function noteQpcrContainers(plan: QpcrPlan, builder: ProtocolBuilder): void {
  builder.note(
    `primers_<n>: the primer${plan.chemistry === "TAQMAN" ? "/probe" : ""} mix of gene n (targets, then ` +
      `reference genes, in plan order) at 10x its final concentration; sample_<n>: template n in plan order.`,
  );
  if (plan.chemistry === "TAQMAN") {
    builder.note("TaqMan probes are read as FAM: the plan does not name the reporter dye.");
  }
  builder.note(
    "Not in this protocol because the plan does not ask for them: no-RT controls and a standard curve for " +
      "primer efficiency (MIQE); add them as samples if needed.",
  );
}
