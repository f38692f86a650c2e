/**
 * Broth microdilution MIC (reference notes 5.4, CLSI M07 style): per series, a 2x stock in the
 * first well, a serial dilution in medium along the series, a growth control (no drug) and a
 * sterility control (medium only); inoculum at 2x the final density into the series and growth
 * wells (50 + 50 uL in a 96-well plate); t0 read, cover, incubate, uncover, endpoint read.
 * One series per organism x biological replicate x compound x technical replicate, and, when the
 * plan names a reference drug, one QC series per organism x biological replicate.
 */
import type { MicPlan } from "../../plan.js";
import { plateModel, readPlateRole } from "../catalog.js";
import { dilutionFactors, serialTransferAmounts } from "../dilution.js";
import { GEOMETRY, packBlocks, plateCount, usableWells, volumeScale, wellSpan } from "../layout.js";
import type { SllProtocolBody, SllWell } from "../types.js";
import {
  addRead,
  at,
  celsius,
  hours,
  microliters,
  organismName,
  plain,
  requireSome,
  StepList,
} from "./common.js";

interface Series {
  organism: number;
  biological: number;
  /** 1-based compound index, or "qc" for the reference drug. */
  compound: number | "qc";
  technical: number;
  concentrations: readonly number[];
}

export function micProtocol(plan: MicPlan): SllProtocolBody {
  requireSome(plan.organisms.length, "organisms");
  requireSome(plan.compounds.length, "compounds");
  plan.compounds.forEach((c, i) =>
    requireSome(c.concentrations_ug_ml.length, `compounds[${i}].concentrations_ug_ml`),
  );
  const list = new StepList();
  const geometry = GEOMETRY[plan.plate_format];
  const series = micSeries(plan);
  const blocks = packBlocks(
    series.map((s) => s.concentrations.length + 2),
    usableWells(geometry, false),
    "compounds",
  );
  const plates = Array.from({ length: plateCount(blocks) }, (_, i) => `plate ${i + 1}`);
  const layout: Layout = {
    series,
    blocks,
    plates,
    half: 50 * volumeScale(plan.plate_format),
    wellsOf: (index) => {
      const block = blocks[index]!;
      return block.wells.map((well) => at(plates[block.plate - 1]!, well));
    },
  };
  labelMicSamples(plan, list, plates);
  fillControls(list, layout);
  diluteSeries(list, layout);
  inoculate(plan, list, layout);
  incubateAndRead(plan, list, plates);
  return list.finish(plan.title, "ExperimentRoboticCellPreparation");
}

/** Where every series sits, and the volume (µL) each well gets from each addition. */
interface Layout {
  series: Series[];
  blocks: ReturnType<typeof packBlocks>;
  plates: string[];
  half: number;
  wellsOf: (index: number) => SllWell[];
}

const inoculumLabel = (o: number, b: number) => `organism ${o} inoculum ${b}`;
const stockLabel = (compound: number | "qc") =>
  compound === "qc" ? "reference drug stock" : `compound ${compound} stock`;

/** Per organism and culture: every compound x technical replicate, then the QC series. */
function micSeries(plan: MicPlan): Series[] {
  const biological = plan.replicates.biological;
  const qcConcentrations = plan.compounds[0]?.concentrations_ug_ml ?? [];
  const series: Series[] = [];
  plan.organisms.forEach((_, o) => {
    for (let b = 1; b <= biological; b++) {
      plan.compounds.forEach((compound, c) => {
        for (let t = 1; t <= plan.replicates.technical; t++) {
          series.push({
            organism: o + 1,
            biological: b,
            compound: c + 1,
            technical: t,
            concentrations: compound.concentrations_ug_ml,
          });
        }
      });
      if (plan.positive_control !== null && qcConcentrations.length > 0) {
        series.push({
          organism: o + 1,
          biological: b,
          compound: "qc",
          technical: 1,
          concentrations: qcConcentrations,
        });
      }
    }
  });
  return series;
}

/** The plates, the medium, the 2x stocks and one inoculum per organism and culture. */
function labelMicSamples(plan: MicPlan, list: StepList, plates: readonly string[]): void {
  const biological = plan.replicates.biological;
  const qcConcentrations = plan.compounds[0]?.concentrations_ug_ml ?? [];
  for (const plate of plates) {
    list.add("LabelContainer", {
      Label: plate,
      Container: plateModel(readPlateRole(plan.plate_format, plan.detection_method)),
    });
  }
  list.labelSample("medium", plan.medium);
  plan.compounds.forEach((compound, c) => {
    const top = compound.concentrations_ug_ml[0] ?? 0;
    list.labelSample(
      stockLabel(c + 1),
      compound.name,
      `2x working stock in medium: ${plain(2 * top)} ug/mL, twice the top final concentration of ${plain(top)} ug/mL`,
    );
  });
  if (plan.positive_control !== null && qcConcentrations.length > 0) {
    list.labelSample(
      stockLabel("qc"),
      plan.positive_control,
      "QC series: the reference drug as a 2x working stock in medium, diluted like compound 1; the lab sets its top concentration to span the QC range",
    );
  }
  plan.organisms.forEach((organism, o) => {
    for (let b = 1; b <= biological; b++) {
      list.labelSample(
        inoculumLabel(o + 1, b),
        organismName(organism),
        `independent culture ${b}: inoculum at ${plain(2 * plan.inoculum_cfu_ml)} CFU/mL (2x the final ${plain(plan.inoculum_cfu_ml)} CFU/mL), prepared from a 0.5 McFarland suspension and used within 15-30 min`,
      );
    }
  });
}

/** Growth controls get medium for the inoculum to join; sterility controls a full volume. */
function fillControls(list: StepList, layout: Layout): void {
  const { series, wellsOf, half } = layout;
  const growthWells = series.map((s, i) => wellsOf(i)[s.concentrations.length]!);
  const sterilityWells = series.map((s, i) => wellsOf(i)[s.concentrations.length + 1]!);
  list.add(
    "Transfer",
    { Source: "medium", Destination: growthWells, Amount: microliters(half) },
    "growth controls: medium, no drug (the inoculum follows)",
  );
  list.add(
    "Transfer",
    { Source: "medium", Destination: sterilityWells, Amount: microliters(2 * half) },
    "sterility controls: medium only, never inoculated",
  );
}

/** The stock into the first well of each series, then the serial dilution along it. */
function diluteSeries(list: StepList, layout: Layout): void {
  const { series, wellsOf, half, blocks, plates } = layout;
  series.forEach((s, i) => {
    const wells = wellsOf(i).slice(0, s.concentrations.length);
    const block = blocks[i]!;
    const what = s.compound === "qc" ? "reference drug" : `compound ${s.compound}`;
    const comment = `${what}, organism ${s.organism}, culture ${s.biological}, replicate ${s.technical}: ${s.concentrations.length} concentrations (${plain(s.concentrations[0]!)} to ${plain(s.concentrations[s.concentrations.length - 1]!)} ug/mL final) in ${wellSpan(block.wells.slice(0, s.concentrations.length))} of ${plates[block.plate - 1]}`;
    if (s.concentrations.length === 1) {
      list.add(
        "Transfer",
        { Source: stockLabel(s.compound), Destination: wells[0], Amount: microliters(half) },
        comment,
      );
      return;
    }
    const field = `compounds[${s.compound === "qc" ? 0 : s.compound - 1}].concentrations_ug_ml`;
    const factors = dilutionFactors(s.concentrations, field);
    const amounts = serialTransferAmounts(factors, half);
    list.add(
      "Transfer",
      { Source: stockLabel(s.compound), Destination: wells[0], Amount: microliters(half + amounts[0]!) },
      comment,
    );
    list.add("SerialDilute", {
      Source: wells[0],
      SerialDilutionFactors: factors,
      TransferAmounts: amounts.map(microliters),
      Diluent: "medium",
    });
  });
}

/** Each culture into its series and growth wells, which halves the drug to its final concentration. */
function inoculate(plan: MicPlan, list: StepList, layout: Layout): void {
  const { series, wellsOf, half } = layout;
  const biological = plan.replicates.biological;
  plan.organisms.forEach((_, o) => {
    for (let b = 1; b <= biological; b++) {
      const destinations = series.flatMap((s, i) =>
        s.organism === o + 1 && s.biological === b ? wellsOf(i).slice(0, s.concentrations.length + 1) : [],
      );
      list.add(
        "Transfer",
        { Source: inoculumLabel(o + 1, b), Destination: destinations, Amount: microliters(half) },
        `inoculum into the series and growth wells: final ${plain(plan.inoculum_cfu_ml)} CFU/mL, drug now at 1x`,
      );
    }
  });
}

/** t0 read, covered incubation, endpoint read; the MBC is left to the lab. */
function incubateAndRead(plan: MicPlan, list: StepList, plates: string[]): void {
  if (plan.detection_method === "absorbance") {
    addRead(list, "absorbance", plates, { wavelengthNm: 600, comment: "t0 read (background)" });
  }
  list.add("Cover", { Sample: plates });
  list.add("IncubateCells", {
    Sample: plates,
    Temperature: celsius(plan.temperature_c),
    Time: hours(plan.incubation_hours),
  });
  list.add("Uncover", { Sample: plates });
  addRead(list, plan.detection_method, plates, {
    wavelengthNm: 600,
    comment: `endpoint read: the MIC is the lowest concentration without growth, by a threshold declared before the run`,
  });
  if (plan.determine_mbc) {
    list.note(
      "MBC: after the MIC is read, the lab subcultures 10-100 uL from the MIC well and every higher concentration onto agar, incubates 18-24 h, and reports the lowest concentration that kills at least 99.9% of the starting inoculum. No listed SLL unit operation plates onto agar.",
    );
  }
}
