/**
 * Cell viability IC50 (reference notes 5.5 and 7.2): cells seeded in the inner wells of the read
 * plate (outer ring = medium moat), 24 h attachment at 37 C / 5% CO2, a 10x dose series in a
 * dilution plate stamped 10 uL into 90 uL, vehicle (0% effect), kill (100% effect, when the plan
 * names one) and no-cell blank wells in every replicate block, exposure, then the readout
 * (CellTiter-Glo: room-temperature equilibration, reagent equal to the medium volume, shake,
 * 10 min, luminescence with 1 s integration).
 */
import type { ViabilityPlan } from "../../plan.js";
import { plateModel } from "../catalog.js";
import { GEOMETRY, outerWells, volumeScale } from "../layout.js";
import type { SllProtocolBody, SllWell } from "../types.js";
import {
  type DoseResponseLayout,
  addTenfoldSeries,
  doseResponseLayout,
  stampTenfoldSeries,
} from "./dose-response-layout.js";
import {
  addRead,
  at,
  celsius,
  hours,
  microliters,
  minutes,
  percent,
  plain,
  requireSome,
  seconds,
  StepList,
} from "./common.js";

const REAGENTS: Record<ViabilityPlan["assay_type"], string> = {
  CELLTITER_GLO: "CellTiter-Glo reagent",
  MTT: "MTT reagent",
  MTS: "MTS reagent",
  RESAZURIN: "resazurin reagent",
  LIVE_DEAD: "live/dead stain",
  OTHER: "viability assay reagent",
};

export function viabilityProtocol(plan: ViabilityPlan): SllProtocolBody {
  requireSome(plan.compound.concentrations_um.length, "compound.concentrations_um");
  const list = new StepList();
  const n = plan.compound.concentrations_um.length;
  const hasKill = plan.positive_control !== null;
  const layout = doseResponseLayout(list, {
    points: n,
    replicates: plan.replicates,
    fullEffectControl: hasKill,
    plateFormat: plan.plate_format,
    detectionMethod: plan.detection_method,
    moat: true,
    field: "compound.concentrations_um",
    plateLabel: "cell plate",
  });
  const seeded = [...layout.testWells.flat(), ...layout.zeroEffectWells, ...layout.fullEffectWells];
  labelViabilitySamples(plan, list);
  seedCells(plan, list, layout, seeded);
  dose(plan, list, layout);
  readViability(plan, list, layout.plates, [...seeded, ...layout.blankWells]);
  return list.finish(plan.title, "ExperimentRoboticCellPreparation");
}

/** The dilution plate, medium, cells, compound and vehicle stocks, kill control and reagent. */
function labelViabilitySamples(plan: ViabilityPlan, list: StepList): void {
  const scale = volumeScale(plan.plate_format);
  const top = plan.compound.concentrations_um[0] ?? 0;
  list.add("LabelContainer", { Label: "dilution plate", Container: plateModel("deep-well-96") });
  list.labelSample(
    "medium",
    `${plan.cell_line} culture medium`,
    "the lab's standard culture medium for the cell line",
  );
  list.labelSample(
    "cells",
    plan.cell_line,
    `cell suspension at ${plain(plan.seeding_density_cells_per_well)} cells per ${plain(90 * scale)} uL`,
  );
  list.labelSample(
    "compound stock",
    plan.compound.name,
    `10x working stock in vehicle medium: ${plain(10 * top)} uM (top final ${plain(top)} uM)`,
  );
  list.labelSample(
    "vehicle medium",
    `${plan.solvent} in ${plan.cell_line} culture medium`,
    "medium holding the solvent at the stock's fraction, so every well gets the same solvent concentration",
  );
  if (plan.positive_control !== null) {
    list.labelSample(
      "positive control",
      plan.positive_control,
      "kill control (100% effect): 10x in vehicle medium at a fully cytotoxic concentration chosen by the lab",
    );
  }
  list.labelSample("assay reagent", REAGENTS[plan.assay_type]);
}

/** The edge moat, cells into test and control wells, medium into blanks, then attachment. */
function seedCells(plan: ViabilityPlan, list: StepList, layout: DoseResponseLayout, seeded: SllWell[]): void {
  const geometry = GEOMETRY[plan.plate_format];
  const scale = volumeScale(plan.plate_format);
  const hasKill = plan.positive_control !== null;
  const { plates } = layout;
  const blankWells = layout.blankWells;
  list.add(
    "Transfer",
    {
      Source: "medium",
      Destination: plates.flatMap((plate) => outerWells(geometry).map((well) => at(plate, well))),
      Amount: microliters(100 * scale),
    },
    "edge moat: the outer wells hold medium only",
  );
  list.add(
    "Transfer",
    { Source: "cells", Destination: seeded, Amount: microliters(90 * scale) },
    `seed ${plain(plan.seeding_density_cells_per_well)} cells per well into the test, vehicle${hasKill ? ", kill" : ""} wells`,
  );
  list.add(
    "Transfer",
    { Source: "medium", Destination: blankWells, Amount: microliters(90 * scale) },
    "no-cell blanks: medium only",
  );
  list.add("Cover", { Sample: plates });
  list.add(
    "IncubateCells",
    { Sample: plates, Temperature: celsius(37), CarbonDioxide: percent(5), Time: hours(24) },
    "attachment before dosing",
  );
}

/** The compound series into each replicate block, vehicle into controls and blanks, the kill control. */
function dose(plan: ViabilityPlan, list: StepList, layout: DoseResponseLayout): void {
  const compoundUl = 10 * volumeScale(plan.plate_format);
  const { plates } = layout;
  const seriesWells = addTenfoldSeries(list, layout, {
    stockLabel: "compound stock",
    diluentLabel: "vehicle medium",
    concentrations: plan.compound.concentrations_um,
    volumeUl: compoundUl,
    field: "compound.concentrations_um",
  });
  list.add("Uncover", { Sample: plates });
  stampTenfoldSeries(list, layout, {
    seriesWells,
    volumeUl: compoundUl,
    diluentLabel: "vehicle medium",
    diluentComment: "vehicle controls (0% effect) and blanks get vehicle medium",
    fullEffectComment: "kill controls (100% effect)",
  });
  list.add("Cover", { Sample: plates });
  list.add(
    "IncubateCells",
    { Sample: plates, Temperature: celsius(37), CarbonDioxide: percent(5), Time: hours(plan.exposure_hours) },
    "exposure",
  );
}

/** CellTiter-Glo as the notes give it; other reagents as their instructions say. */
function readViability(plan: ViabilityPlan, list: StepList, plates: string[], assayWells: SllWell[]): void {
  const scale = volumeScale(plan.plate_format);
  if (plan.assay_type === "CELLTITER_GLO") {
    list.add("Incubate", { Sample: plates, Time: minutes(30) }, "equilibrate to room temperature");
    list.add("Uncover", { Sample: plates });
    list.add(
      "Transfer",
      { Source: "assay reagent", Destination: assayWells, Amount: microliters(100 * scale) },
      "reagent volume equal to the medium volume",
    );
    list.add("Mix", { Sample: plates }, "shake about 2 min");
    list.add("Incubate", { Sample: plates, Time: minutes(10) }, "at room temperature");
    if (plan.detection_method === "luminescence") {
      list.add("LuminescenceIntensity", { Sample: plates, IntegrationTime: seconds(1) });
    } else addRead(list, plan.detection_method, plates);
  } else {
    list.add("Uncover", { Sample: plates });
    list.comment(
      `add the ${REAGENTS[plan.assay_type]} as its instructions say before reading (no volume in the plan)`,
    );
    addRead(list, plan.detection_method, plates, {
      comment:
        plan.detection_method === "absorbance" ? "wavelength set by the lab for the reagent" : undefined,
    });
  }
}
