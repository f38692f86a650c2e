import type { MicPlan } from "../../plan.js";
import { ProtocolNotExpressibleError, ProtocolTooLargeError } from "../errors.js";
import {
  WellAllocator,
  assayPlate,
  formatConcentration,
  incubatorFor,
  maxVolumeOf,
  organismLabel,
  replicateSlots,
} from "../layout.js";
import { type ProtocolBuilder, mixVolumeFor, resourceId } from "../protocol-builder.js";
import type { ContainerType } from "../containers.js";
import { hours, microliters, nanometers } from "../quantities.js";
import { coveredIncubation } from "../steps.js";
import {
  describeSerialDilutionProblem,
  isSerialDilutionProblem,
  planSerialDilution,
  type SerialDilutionPlan,
} from "../serial-dilution.js";

/**
 * Broth microdilution MIC (notes 5.4, skeleton A): per series, the drug wells of an in-plate
 * serial dilution, a growth control (inoculum, no drug) and a sterility control (medium only).
 * Each well holds `half` µL of drug in medium (2x) and receives `half` µL of inoculum, which
 * halves the drug to its final concentration: 50 + 50 µL on 96-well plates as in the skeleton,
 * 25 + 25 µL on 384-well plates (ours: the 384-flat well holds 90 µL).
 */
export function buildMicProtocol(plan: MicPlan, builder: ProtocolBuilder): void {
  const plateType = assayPlate(plan.plate_format, "clear");
  const half = plan.plate_format === "384-well" ? 25 : 50;
  const where = incubatorFor(plan.temperature_c, "temperature_c");
  const capacity = maxVolumeOf(plateType);

  declareContainers(plan, builder, plateType);
  const placed = placeSeries(micSeries(plan), plateType);
  const dilutionOf = planDilutions(plan, placed, half, capacity);

  provisionMedium(plan, builder, placed, dilutionOf, half);
  dilute(builder, placed, dilutionOf);
  inoculate(builder, placed, half);
  const readWells = labelWells(builder, placed);
  readAndIncubate(plan, builder, readWells, where);
  noteMicContainers(plan, builder);
}

const PLATE = "mic_plate";

/** One dilution series of a drug against one culture, with its growth and sterility controls. */
interface Series {
  drugRef: string;
  drugName: string;
  inoculumRef: string;
  organism: string;
  replicate: string;
  pointLabels: string[];
  concentrations: readonly number[];
}

interface PlacedSeries {
  series: Series;
  drugWells: number[];
  growthWell: number;
  sterilityWell: number;
}

/** The plate, drug and inoculum containers; a plan with nothing to test is not expressible. */
function declareContainers(plan: MicPlan, builder: ProtocolBuilder, plateType: ContainerType): void {
  const problems: { field: string; message: string }[] = [];
  if (plan.organisms.length === 0) problems.push({ field: "organisms", message: "no organism to test" });
  if (plan.compounds.length === 0) problems.push({ field: "compounds", message: "no compound to test" });
  builder.fresh(PLATE, plateType, plan.determine_mbc ? { store: "cold_4" } : "discard");
  plan.compounds.forEach((compound, c) => {
    if (compound.concentrations_ug_ml.length === 0) {
      problems.push({
        field: `compounds[${c}].concentrations_ug_ml`,
        message: `${compound.name} has no concentrations`,
      });
    }
    builder.existing(`compound_${c + 1}_2x`, { store: "cold_20" });
  });
  if (plan.positive_control) builder.existing("positive_control_2x", { store: "cold_20" });
  plan.organisms.forEach((_, o) => {
    for (let b = 1; b <= plan.replicates.biological; b += 1)
      builder.existing(`inoculum_${o + 1}_b${b}`, "discard");
  });
  if (problems.length > 0) throw new ProtocolNotExpressibleError(problems);
}

/** Every organism x compound x replicate, then the positive control once per organism. */
function micSeries(plan: MicPlan): Series[] {
  const series: Series[] = [];
  const slots = replicateSlots(plan.replicates);
  plan.organisms.forEach((organism, o) => {
    plan.compounds.forEach((compound, c) => {
      for (const slot of slots) {
        series.push({
          drugRef: `compound_${c + 1}_2x`,
          drugName: compound.name,
          inoculumRef: `inoculum_${o + 1}_b${slot.biological}`,
          organism: organismLabel(organism),
          replicate: slot.label,
          concentrations: compound.concentrations_ug_ml,
          pointLabels: compound.concentrations_ug_ml.map((value) => `${formatConcentration(value)} µg/mL`),
        });
      }
    });
  });
  if (plan.positive_control) {
    // The reference drug runs 2-fold from the top concentration the lab chooses for it.
    const points = Math.max(...plan.compounds.map((compound) => compound.concentrations_ug_ml.length));
    const relative = Array.from({ length: points }, (_, i) => 1 / 2 ** i);
    plan.organisms.forEach((organism, o) => {
      series.push({
        drugRef: "positive_control_2x",
        drugName: `positive control ${plan.positive_control}`,
        inoculumRef: `inoculum_${o + 1}_b1`,
        organism: organismLabel(organism),
        replicate: "biological 1",
        concentrations: relative,
        pointLabels: relative.map((_, i) => (i === 0 ? "top concentration" : `top / ${2 ** i}`)),
      });
    });
  }
  return series;
}

/** Each series takes a block of its drug wells plus two control wells on the one plate. */
function placeSeries(series: readonly Series[], plateType: ContainerType): PlacedSeries[] {
  const allocator = new WellAllocator(plateType);
  const neededWells = WellAllocator.blockFootprint(
    plateType.columns,
    series.map((s) => s.concentrations.length + 2),
  );
  return series.map((s) => {
    const wells = allocator.takeBlock(s.concentrations.length + 2);
    if (!wells)
      throw new ProtocolTooLargeError(
        "plate_format",
        neededWells,
        plateType.wells,
        `wells of one ${plateType.shortname} plate`,
      );
    const drugWells = wells.slice(0, s.concentrations.length);
    const [growthWell, sterilityWell] = wells.slice(s.concentrations.length) as [number, number];
    return { series: s, drugWells, growthWell, sterilityWell };
  });
}

/** One serial dilution per distinct concentration list; one the plate cannot hold is refused. */
function planDilutions(
  plan: MicPlan,
  placed: readonly PlacedSeries[],
  half: number,
  capacity: number,
): (s: Series) => SerialDilutionPlan {
  const dilutions = new Map<readonly number[], ReturnType<typeof planSerialDilution>>();
  for (const { series: s } of placed) {
    if (dilutions.has(s.concentrations)) continue;
    const dilution = planSerialDilution(s.concentrations, half, capacity);
    if (isSerialDilutionProblem(dilution)) {
      const c = plan.compounds.findIndex((compound) => compound.concentrations_ug_ml === s.concentrations);
      throw new ProtocolNotExpressibleError([
        {
          field: c >= 0 ? `compounds[${c}].concentrations_ug_ml` : "positive_control",
          message: `${s.drugName}: ${describeSerialDilutionProblem(dilution)}`,
        },
      ]);
    }
    dilutions.set(s.concentrations, dilution);
  }
  return (s: Series) => {
    const dilution = dilutions.get(s.concentrations);
    if (!dilution || isSerialDilutionProblem(dilution)) throw new Error("dilution planned above");
    return dilution;
  };
}

/** 1. Medium: diluent of the series, growth control (half), sterility control (full volume). */
function provisionMedium(
  plan: MicPlan,
  builder: ProtocolBuilder,
  placed: readonly PlacedSeries[],
  dilutionOf: (s: Series) => SerialDilutionPlan,
  half: number,
): void {
  const medium = resourceId(plan.medium);
  const mediumTo: { well: string; volume: string }[] = [];
  for (const { series: s, drugWells, growthWell, sterilityWell } of placed) {
    const dilution = dilutionOf(s);
    drugWells.forEach((well, i) => {
      const volume = dilution.diluentUl[i] as number;
      if (volume > 0) mediumTo.push({ well: builder.well(PLATE, well), volume: microliters(volume) });
    });
    mediumTo.push({ well: builder.well(PLATE, growthWell), volume: microliters(half) });
    mediumTo.push({ well: builder.well(PLATE, sterilityWell), volume: microliters(2 * half) });
  }
  builder.push({ op: "provision", resource_id: medium, to: mediumTo });
}

/** 2. Drug at 2x the top concentration into the first well of each series, then the dilution. */
function dilute(
  builder: ProtocolBuilder,
  placed: readonly PlacedSeries[],
  dilutionOf: (s: Series) => SerialDilutionPlan,
): void {
  for (const { series: s, drugWells } of placed) {
    const dilution = dilutionOf(s);
    const first = drugWells[0] as number;
    builder.transfer(builder.well(s.drugRef, 0), builder.well(PLATE, first), dilution.topVolumeUl);
    dilution.transfersUl.forEach((volume, i) => {
      const into = drugWells[i + 1] as number;
      const held = (dilution.diluentUl[i + 1] as number) + volume;
      builder.transfer(
        builder.well(PLATE, drugWells[i] as number),
        builder.well(PLATE, into),
        volume,
        mixVolumeFor(held),
      );
    });
    if (dilution.discardUl > 0)
      builder.discard(builder.well(PLATE, drugWells.at(-1) as number), dilution.discardUl);
  }
}

/** 3. Inoculum into drug wells and the growth control, never the sterility control. */
function inoculate(builder: ProtocolBuilder, placed: readonly PlacedSeries[], half: number): void {
  for (const { series: s, drugWells, growthWell } of placed) {
    for (const well of [...drugWells, growthWell]) {
      builder.transfer(
        builder.well(s.inoculumRef, 0),
        builder.well(PLATE, well),
        half,
        mixVolumeFor(2 * half),
      );
    }
  }
}

/** Labels every well with its series; returns the wells to read, in plate order of the series. */
function labelWells(builder: ProtocolBuilder, placed: readonly PlacedSeries[]): string[] {
  const readWells: string[] = [];
  for (const { series: s, drugWells, growthWell, sterilityWell } of placed) {
    const context = `${s.organism} | ${s.replicate}`;
    drugWells.forEach((well, i) =>
      builder.label(PLATE, well, `${s.drugName} ${s.pointLabels[i]} | ${context}`),
    );
    builder.label(PLATE, growthWell, `growth control (no drug) | ${context}`);
    builder.label(
      PLATE,
      sterilityWell,
      `sterility control (medium only) | next to ${s.drugName}, ${context}`,
    );
    readWells.push(...[...drugWells, growthWell, sterilityWell].map(String));
  }
  return readWells;
}

/** OD600 at time zero, covered static incubation, OD600 at the end. */
function readAndIncubate(
  plan: MicPlan,
  builder: ProtocolBuilder,
  readWells: string[],
  where: ReturnType<typeof incubatorFor>,
): void {
  const duration = hours(plan.incubation_hours);
  builder.push(
    {
      op: "absorbance",
      object: PLATE,
      wells: readWells,
      wavelength: nanometers(600),
      num_flashes: 25,
      dataref: "od600_t0",
    },
    ...coveredIncubation(PLATE, where, duration),
    {
      op: "absorbance",
      object: PLATE,
      wells: readWells,
      wavelength: nanometers(600),
      num_flashes: 25,
      dataref: `od600_${String(plan.incubation_hours).replace(".", "_")}h`,
    },
  );
}

/** What the lab must prepare in the containers the document only names. */
function noteMicContainers(plan: MicPlan, builder: ProtocolBuilder): void {
  builder.note(
    `Each inoculum_<organism>_b<n> tube holds one independent culture at ${2 * plan.inoculum_cfu_ml} CFU/mL ` +
      `(twice the final ${plan.inoculum_cfu_ml} CFU/mL); each compound_<n>_2x tube holds the compound at ` +
      `twice its highest final concentration in ${plan.medium}.`,
  );
  if (plan.positive_control) {
    builder.note(
      `positive_control_2x holds ${plan.positive_control} at twice the top concentration the lab uses for ` +
        `its quality-control range; its series is 2-fold.`,
    );
  }
  if (plan.determine_mbc) {
    builder.note(
      "MBC: subculturing wells at and above the MIC onto agar has no op in this protocol; the plate is " +
        "stored at 4 °C (cold_4) for the lab to subculture.",
    );
  }
}
