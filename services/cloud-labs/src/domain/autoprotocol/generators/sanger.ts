import type { SangerPlan } from "../../plan.js";
import { ProtocolNotExpressibleError } from "../errors.js";
import type { ContainerType } from "../containers.js";
import { WellAllocator, assayPlate, requireWellsOnPlate } from "../layout.js";
import { type ProtocolBuilder, mixVolumeFor, resourceId } from "../protocol-builder.js";
import { celsius, microliters, minutes, seconds } from "../quantities.js";

/**
 * Cycle-sequencing reaction, 10 µL (ours): premix 4, water 4, primer 1, template 1 µL. The lab
 * supplies premix, primer and template at the strengths its chemistry needs for these volumes.
 */
const REACTION = { premix: 4, water: 4, primer: 1, template: 1 } as const;
const REACTION_UL = REACTION.premix + REACTION.water + REACTION.primer + REACTION.template;

/**
 * Cycle-sequencing program: 96 °C 1 min, then 25 x (96 °C 10 s, 50 °C 5 s, 60 °C 4 min). Recalled
 * from the common BigDye-type program, not from the notes; the lab may substitute its own.
 */
const PROGRAM = {
  initial: { temperature: 96, seconds: 60 },
  cycles: 25,
  steps: [
    { temperature: 96, seconds: 10 },
    { temperature: 50, seconds: 5 },
    { temperature: 60, seconds: 240 },
  ],
} as const;

/**
 * Sanger verification: the cycle-sequencing reactions (templates x primers x technical
 * replicates) set up, sealed and cycled in a PCR plate. Clean-up and capillary electrophoresis
 * have no Autoprotocol op: the lab runs them on its capillary instrument (see the notes).
 */
export function buildSangerProtocol(plan: SangerPlan, builder: ProtocolBuilder): void {
  const problems: { field: string; message: string }[] = [];
  if (plan.templates < 1) problems.push({ field: "templates", message: "no template to sequence" });
  if (plan.primers.length === 0) problems.push({ field: "primers", message: "no sequencing primer" });
  if (problems.length > 0) throw new ProtocolNotExpressibleError(problems);

  const plateType = assayPlate(plan.plate_format, "pcr");
  const technical = plan.replicates.technical;
  requireWellsOnPlate("templates", plan.templates * plan.primers.length * technical, plateType);
  const plate = builder.fresh("sequencing_plate", plateType, { store: "cold_4" });
  for (let t = 1; t <= plan.templates; t += 1) builder.existing(`template_${t}`, { store: "cold_20" });
  plan.primers.forEach((_, p) => builder.existing(`primer_${p + 1}`, { store: "cold_20" }));

  const reactions = placeReactions(plan, builder, plate, plateType);
  assembleReactions(builder, plate, reactions);
  cycleSequence(builder, plate);
  noteSangerContainers(plan, builder);
}

interface Reaction {
  well: number;
  template: number;
  primer: number;
}

/** Every template x primer x technical replicate, labelled in that order. */
function placeReactions(
  plan: SangerPlan,
  builder: ProtocolBuilder,
  plate: string,
  plateType: ContainerType,
): Reaction[] {
  const technical = plan.replicates.technical;
  const allocator = new WellAllocator(plateType);
  const reactions: Reaction[] = [];
  for (let t = 1; t <= plan.templates; t += 1) {
    plan.primers.forEach((primer, p) => {
      for (let r = 1; r <= technical; r += 1) {
        const well = allocator.takeOne();
        reactions.push({ well, template: t, primer: p + 1 });
        builder.label(
          plate,
          well,
          `${plan.template_type} template ${t} | primer ${primer.name} | technical ${r}`,
        );
      }
    });
  }

  return reactions;
}

/** Premix and water, then primer, then template. */
function assembleReactions(builder: ProtocolBuilder, plate: string, reactions: readonly Reaction[]): void {
  builder.push(
    {
      op: "provision",
      resource_id: resourceId("cycle sequencing premix"),
      to: reactions.map((r) => ({ well: builder.well(plate, r.well), volume: microliters(REACTION.premix) })),
    },
    {
      op: "provision",
      resource_id: resourceId("nuclease-free water"),
      to: reactions.map((r) => ({ well: builder.well(plate, r.well), volume: microliters(REACTION.water) })),
    },
  );
  for (const r of reactions) {
    builder.transfer(builder.well(`primer_${r.primer}`, 0), builder.well(plate, r.well), REACTION.primer);
  }
  for (const r of reactions) {
    builder.transfer(
      builder.well(`template_${r.template}`, 0),
      builder.well(plate, r.well),
      REACTION.template,
      mixVolumeFor(REACTION_UL),
    );
  }
}

/** Foil seal and the dye-terminator cycling program. */
function cycleSequence(builder: ProtocolBuilder, plate: string): void {
  builder.push(
    { op: "seal", object: plate, type: "foil" },
    {
      op: "thermocycle",
      object: plate,
      volume: microliters(REACTION_UL),
      lid_temperature: celsius(105),
      groups: [
        {
          cycles: 1,
          steps: [
            { temperature: celsius(PROGRAM.initial.temperature), duration: seconds(PROGRAM.initial.seconds) },
          ],
        },
        {
          cycles: PROGRAM.cycles,
          steps: PROGRAM.steps.map((step) => ({
            temperature: celsius(step.temperature),
            duration: step.seconds >= 60 ? minutes(step.seconds / 60) : seconds(step.seconds),
          })),
        },
      ],
    },
  );
}

/** What the lab must prepare, and the steps that happen off this protocol. */
function noteSangerContainers(plan: SangerPlan, builder: ProtocolBuilder): void {
  builder.note(
    "Sequencing itself (reaction clean-up and capillary electrophoresis) has no Autoprotocol op: it happens " +
      "on the lab's capillary instrument. The sealed sequencing_plate is stored at 4 °C (cold_4) for it.",
  );
  builder.note(
    `template_<n>: ${plan.template_type} template n; primer_<n>: sequencing primer n in plan order ` +
      `(${plan.primers.map((primer) => primer.name).join(", ")}).` +
      (plan.expected_insert_size_bp !== null ? ` Expected insert: ${plan.expected_insert_size_bp} bp.` : ""),
  );
  builder.note(
    "The cycling program (96 °C 1 min; 25 x 96 °C 10 s, 50 °C 5 s, 60 °C 4 min) is the common dye-terminator " +
      "program; the lab may use its own.",
  );
}
