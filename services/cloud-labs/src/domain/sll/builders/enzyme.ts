/**
 * Enzyme inhibition IC50 (reference notes 7.2): a 10x inhibitor series in a dilution plate,
 * stamped 10 uL per well; per replicate block a no-inhibitor control (0% inhibition), a
 * positive-control inhibitor (100%, when the plan names one) and a no-enzyme blank; enzyme
 * 40 uL, mix, substrate 50 uL (100 uL final in a 96-well plate), mix, incubate, endpoint read.
 * The volumes and the buffer are Petri defaults: the plan does not give them.
 */
import type { EnzymePlan } from "../../plan.js";
import { plateModel } from "../catalog.js";
import { volumeScale } from "../layout.js";
import type { SllProtocolBody } from "../types.js";
import {
  type DoseResponseLayout,
  addTenfoldSeries,
  doseResponseLayout,
  stampTenfoldSeries,
} from "./dose-response-layout.js";
import { addRead, celsius, microliters, minutes, plain, requireSome, StepList } from "./common.js";

export function enzymeProtocol(plan: EnzymePlan): SllProtocolBody {
  requireSome(plan.inhibitor.concentrations_um.length, "inhibitor.concentrations_um");
  const list = new StepList();
  const hasPositive = plan.positive_control !== null;
  const layout = doseResponseLayout(list, {
    points: plan.inhibitor.concentrations_um.length,
    replicates: plan.replicates,
    fullEffectControl: hasPositive,
    plateFormat: plan.plate_format,
    detectionMethod: plan.detection_method,
    moat: false,
    field: "inhibitor.concentrations_um",
    plateLabel: "assay plate",
  });
  labelEnzymeSamples(plan, list);
  addInhibitor(plan, list, layout);
  runReaction(plan, list, layout);
  return list.finish(plan.title, "ExperimentRoboticSamplePreparation");
}

/** The dilution plate, buffer, enzyme, substrate, inhibitor stock and positive control. */
function labelEnzymeSamples(plan: EnzymePlan, list: StepList): void {
  const top = plan.inhibitor.concentrations_um[0] ?? 0;
  list.add("LabelContainer", { Label: "dilution plate", Container: plateModel("deep-well-96") });
  list.labelSample(
    "assay buffer",
    `${plan.enzyme} assay buffer`,
    "the enzyme's assay buffer, chosen by the lab (the plan names none)",
  );
  list.labelSample("enzyme", plan.enzyme, "working solution at 2.5x its final concentration in assay buffer");
  list.labelSample(
    "substrate",
    plan.substrate,
    "working solution at 2x its final concentration in assay buffer",
  );
  list.labelSample(
    "inhibitor stock",
    plan.inhibitor.name,
    `10x working stock in assay buffer: ${plain(10 * top)} uM (top final ${plain(top)} uM)`,
  );
  if (plan.positive_control !== null) {
    list.labelSample(
      "positive control",
      plan.positive_control,
      "reference inhibitor (100% inhibition): 10x in assay buffer at a fully inhibiting concentration chosen by the lab",
    );
  }
}

/** The inhibitor series into each replicate block, buffer into controls and blanks, the positive control. */
function addInhibitor(plan: EnzymePlan, list: StepList, layout: DoseResponseLayout): void {
  const inhibitorUl = 10 * volumeScale(plan.plate_format);
  const seriesWells = addTenfoldSeries(list, layout, {
    stockLabel: "inhibitor stock",
    diluentLabel: "assay buffer",
    concentrations: plan.inhibitor.concentrations_um,
    volumeUl: inhibitorUl,
    field: "inhibitor.concentrations_um",
  });
  stampTenfoldSeries(list, layout, {
    seriesWells,
    volumeUl: inhibitorUl,
    diluentLabel: "assay buffer",
    diluentComment:
      "no-inhibitor controls (0% inhibition) and no-enzyme blanks get buffer instead of inhibitor",
    fullEffectComment: "positive controls (100% inhibition)",
  });
}

/** Enzyme (buffer in blanks), substrate to start the reaction, incubation and the endpoint read. */
function runReaction(plan: EnzymePlan, list: StepList, layout: DoseResponseLayout): void {
  const scale = volumeScale(plan.plate_format);
  const { plates, testWells } = layout;
  const blankWells = layout.blankWells;
  const withEnzyme = [...testWells.flat(), ...layout.zeroEffectWells, ...layout.fullEffectWells];
  list.add("Transfer", { Source: "enzyme", Destination: withEnzyme, Amount: microliters(40 * scale) });
  list.add(
    "Transfer",
    { Source: "assay buffer", Destination: blankWells, Amount: microliters(40 * scale) },
    "no-enzyme blanks",
  );
  list.add("Mix", { Sample: plates }, "no pre-incubation of enzyme and inhibitor is planned");
  list.add(
    "Transfer",
    { Source: "substrate", Destination: [...withEnzyme, ...blankWells], Amount: microliters(50 * scale) },
    "start the reaction",
  );
  list.add("Mix", { Sample: plates });
  list.add("Incubate", {
    Sample: plates,
    Time: minutes(plan.incubation_minutes),
    Temperature: celsius(plan.temperature_c),
  });
  addRead(list, plan.detection_method, plates, {
    wavelengthNm: plan.wavelength_nm,
    comment:
      plan.detection_method === "absorbance" && plan.wavelength_nm === null
        ? "endpoint read; wavelength set by the lab (the plan gives none)"
        : "endpoint read",
  });
}
