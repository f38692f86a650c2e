/**
 * RT-qPCR (reference notes 5.6 and 7.3) as one ExperimentqPCR call: every sample, a no-RT
 * control per sample and a no-template control (water), each with every primer pair (targets,
 * then reference genes), technical replicates as NumberOfReplicates, the thermal profile of the
 * notes' SYBR skeleton (95 C 2 min; cycles of 95 C 15 s and 60 C 1 min) and a melting curve for
 * intercalating dyes. The instrument and plate are ExperimentqPCR's to resolve.
 */
import type { QpcrPlan } from "../../plan.js";
import { WATER_MODEL_NAME } from "../catalog.js";
import type { SllModel, SllObject, SllProtocolBody } from "../types.js";
import {
  celsius,
  microliters,
  minutes,
  requireSome,
  sampleModel,
  sampleObject,
  seconds,
  StepList,
} from "./common.js";

const MASTER_MIXES: Record<QpcrPlan["chemistry"], string> = {
  SYBR_GREEN: "2x SYBR Green qPCR master mix",
  TAQMAN: "2x TaqMan qPCR master mix",
  OTHER: "2x qPCR master mix",
};

export function qpcrProtocol(plan: QpcrPlan): SllProtocolBody {
  requireSome(plan.samples.length, "samples");
  requireSome(plan.targets.length + plan.reference_genes.length, "targets");
  const list = new StepList();
  const genes = [...plan.targets, ...plan.reference_genes];
  const pairs = genes.map((gene) => [
    sampleModel(`${gene} forward primer`),
    sampleModel(`${gene} reverse primer`),
  ]);
  const samples: (SllModel | SllObject)[] = [
    ...plan.samples.map((sample) => sampleObject(sample)),
    ...plan.samples.map((sample) => sampleObject(`${sample} no-RT`)),
    sampleModel(WATER_MODEL_NAME),
  ];

  list.note(
    "Samples are the requester's cDNA samples, then a no-RT control of each (the same RNA taken through the reverse-transcription step without reverse transcriptase), then water as the no-template control; every one is run with every primer pair.",
  );
  list.note(
    "Amplification efficiency (a 5-point 10-fold standard curve per primer pair, 90-110%) is not expressed here: the lab runs it or reports it from validated assays.",
  );
  if (plan.chemistry === "TAQMAN") {
    list.note(
      "TaqMan chemistry needs a probe per target; the plan names none, so the lab supplies validated assays.",
    );
  }
  if (plan.replicates.biological > 1) {
    list.note(
      `Biological replicates are the listed samples (${plan.replicates.biological} per condition in the plan).`,
    );
  }
  list.add(
    "ExperimentqPCR",
    {
      Samples: samples,
      PrimerPairs: samples.map(() => pairs),
      ReactionVolume: microliters(plan.reaction_volume_ul),
      MasterMix: sampleModel(MASTER_MIXES[plan.chemistry]),
      NumberOfReplicates: plan.replicates.technical,
      NumberOfCycles: plan.cycles,
      ActivationTemperature: celsius(95),
      ActivationTime: minutes(2),
      DenaturationTemperature: celsius(95),
      DenaturationTime: seconds(15),
      ExtensionTemperature: celsius(60),
      ExtensionTime: minutes(1),
      MeltingCurve: plan.chemistry === "SYBR_GREEN",
    },
    plan.chemistry === "SYBR_GREEN"
      ? "melting curve: one peak per primer pair expected with an intercalating dye"
      : undefined,
  );
  return list.finish(plan.title, "ExperimentqPCR");
}
