/**
 * Sanger verification: one reaction per template x primer x technical replicate in PCR plates,
 * template then primer, sealed and spun. The notes list no SLL function for capillary
 * sequencing, so the read itself is a note for the lab. Reaction volumes are Petri defaults.
 */
import type { SangerPlan } from "../../plan.js";
import type { ContainerRole } from "../catalog.js";
import { plateModel } from "../catalog.js";
import { GEOMETRY, packBlocks, plateCount, usableWells } from "../layout.js";
import type { SllProtocolBody, SllWell } from "../types.js";
import { at, microliters, minutes, plain, requireSome, sampleObject, StepList } from "./common.js";

/** [Petri default] per reaction. */
export const SANGER_TEMPLATE_UL = 10;
export const SANGER_PRIMER_UL = 5;

export function sangerProtocol(plan: SangerPlan): SllProtocolBody {
  requireSome(plan.templates, "templates");
  requireSome(plan.primers.length, "primers");
  const list = new StepList();
  const role: ContainerRole = plan.plate_format === "384-well" ? "pcr-384" : "pcr-96";
  const reactions: { template: number; primer: number }[] = [];
  for (let t = 1; t <= plan.templates; t++) {
    plan.primers.forEach((_, p) => {
      for (let r = 0; r < plan.replicates.technical; r++) reactions.push({ template: t, primer: p + 1 });
    });
  }
  const blocks = packBlocks(
    reactions.map(() => 1),
    usableWells(GEOMETRY[plan.plate_format], false),
    "templates",
  );
  const plates = Array.from({ length: plateCount(blocks) }, (_, i) => `sequencing plate ${i + 1}`);
  const wellOf = (index: number): SllWell => at(plates[blocks[index]!.plate - 1]!, blocks[index]!.wells[0]!);

  for (const plate of plates) list.add("LabelContainer", { Label: plate, Container: plateModel(role) });
  for (let t = 1; t <= plan.templates; t++) {
    list.add(
      "LabelSample",
      { Label: `template ${t}`, Sample: sampleObject(`template ${t}`) },
      `the requester's ${plan.template_type.replace("_", " ")} template ${t}${
        plan.expected_insert_size_bp === null
          ? ""
          : `, expected insert ${plain(plan.expected_insert_size_bp)} bp`
      }`,
    );
  }
  plan.primers.forEach((primer, p) => {
    list.labelSample(
      `primer ${p + 1}`,
      primer.name,
      primer.sequence === null ? "sequence not given" : `sequence 5'-${primer.sequence}-3'`,
    );
  });
  for (let t = 1; t <= plan.templates; t++) {
    list.add("Transfer", {
      Source: `template ${t}`,
      Destination: reactions.flatMap((reaction, i) => (reaction.template === t ? [wellOf(i)] : [])),
      Amount: microliters(SANGER_TEMPLATE_UL),
    });
  }
  plan.primers.forEach((_, p) => {
    list.add("Transfer", {
      Source: `primer ${p + 1}`,
      Destination: reactions.flatMap((reaction, i) => (reaction.primer === p + 1 ? [wellOf(i)] : [])),
      Amount: microliters(SANGER_PRIMER_UL),
    });
  });
  list.add("Cover", { Sample: plates }, "seal");
  list.add("Centrifuge", { Sample: plates, Time: minutes(1) }, "brief spin to collect the liquid");
  list.note(
    "Sequencing: the lab runs every well on its capillary sequencer and returns the traces; the notes list no SLL function for Sanger sequencing.",
  );
  return list.finish(plan.title, "ExperimentRoboticSamplePreparation");
}
