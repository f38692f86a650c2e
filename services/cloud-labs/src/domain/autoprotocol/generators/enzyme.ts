import type { EnzymePlan } from "../../plan.js";
import { ProtocolNotExpressibleError } from "../errors.js";
import type { ContainerType } from "../containers.js";
import { WellAllocator, assayPlate, incubatorFor, replicateSlots, requireWellsOnPlate } from "../layout.js";
import { type ProtocolBuilder, mixVolumeFor } from "../protocol-builder.js";
import { celsius, microliters, minutes } from "../quantities.js";
import { absorbanceGroup, coveredIncubation, luminescenceRead } from "../steps.js";
import type { Instruction } from "../types.js";
import type { DilutionPlate } from "./dilution-plate.js";
import type { DoseGroup, PlacedWell } from "./dose-series.js";
import { buildTenfoldSeries, doseGroups, placeGroups, tenfoldSource } from "./dose-series.js";

/**
 * Enzyme + inhibitor (10x) are pre-incubated, then substrate starts the reaction. Volumes are
 * ours: enzyme 40 + inhibitor 10 + substrate 50 µL on 96-well plates, 8 + 2 + 10 µL on 384-well
 * plates (the white low-volume plate holds 40 µL).
 */
const VOLUMES = {
  "96-well": { enzyme: 40, inhibitor: 10, substrate: 50 },
  "384-well": { enzyme: 8, inhibitor: 2, substrate: 10 },
} as const;

/** Ours: the plan has no pre-incubation field, and the notes only ask that it be stated. */
export const ENZYME_PREINCUBATION_MINUTES = 15;
/** Kinetic reads one minute apart, so initial rates come from the early, linear part. */
const KINETIC_INTERVAL_MINUTES = 1;

type Readout = { kind: "absorbance"; wavelengthNm: number } | { kind: "luminescence" };

function readoutOf(plan: EnzymePlan): Readout {
  switch (plan.assay_type) {
    case "COLORIMETRIC":
    case "COUPLED":
      if (plan.wavelength_nm === null) {
        throw new ProtocolNotExpressibleError([
          {
            field: "wavelength_nm",
            message: `a ${plan.assay_type.toLowerCase()} assay needs a detection wavelength`,
          },
        ]);
      }
      return { kind: "absorbance", wavelengthNm: plan.wavelength_nm };
    case "LUMINESCENT":
      return { kind: "luminescence" };
    case "FLUOROMETRIC":
      throw new ProtocolNotExpressibleError([
        {
          field: "assay_type",
          message: "a fluorometric read needs excitation and emission wavelengths; the plan carries only one",
        },
      ]);
    case "RADIOMETRIC":
      throw new ProtocolNotExpressibleError([
        { field: "assay_type", message: "radiometric detection has no Autoprotocol op" },
      ]);
    case "OTHER":
      throw new ProtocolNotExpressibleError([
        { field: "assay_type", message: "the detection of an OTHER assay type is not known" },
      ]);
  }
}

/** Enzyme inhibition IC50: inhibitor series, pre-incubation, substrate, kinetic or endpoint read. */
export function buildEnzymeProtocol(plan: EnzymePlan, builder: ProtocolBuilder): void {
  const readout = readoutOf(plan);
  const where = incubatorFor(plan.temperature_c, "temperature_c");
  const concentrations = plan.inhibitor.concentrations_um;
  if (concentrations.length === 0) {
    throw new ProtocolNotExpressibleError([
      { field: "inhibitor.concentrations_um", message: "no concentration to test" },
    ]);
  }
  const volumes = VOLUMES[plan.plate_format];
  const plateType = assayPlate(plan.plate_format, readout.kind === "luminescence" ? "white" : "clear");
  const slots = replicateSlots(plan.replicates);
  const groups = inhibitionGroups(plan);
  requireWellsOnPlate("plate_format", groups.length * slots.length, plateType);

  const plate = builder.fresh("assay_plate", plateType, "discard");
  for (let b = 1; b <= plan.replicates.biological; b += 1) builder.existing(`enzyme_b${b}`, "discard");
  const buffer = builder.existing("assay_buffer", "discard");
  const stock = builder.existing("inhibitor_10x", { store: "cold_20" });
  const vehicle = builder.existing("vehicle_buffer", "discard");
  if (plan.positive_control) builder.existing("positive_control_10x", { store: "cold_20" });
  const substrate = builder.existing("substrate_2x", "discard");

  const placed = placeGroups(new WellAllocator(plateType), groups, slots);
  const assayWells = placed.map((p) => p.well);

  const dilution = buildTenfoldSeries(builder, {
    name: plan.inhibitor.name,
    stockRef: stock,
    vehicleRef: vehicle,
    concentrationsUm: concentrations,
    drawUl: slots.length * volumes.inhibitor,
    field: "inhibitor.concentrations_um",
  });
  addEnzymeAndInhibitor(plan, builder, { plate, buffer, vehicle }, placed, dilution);
  builder.push(...coveredIncubation(plate, where, minutes(ENZYME_PREINCUBATION_MINUTES)));
  startReactions(plan, builder, plate, substrate, assayWells, plateType);
  builder.push(...reads(plan, builder, readout, plate, assayWells, where));
  noteEnzymeContainers(plan, builder);
}

type Group = DoseGroup<"vehicle" | "blank" | "positive">;

/** One group per dose, then the no-inhibitor, positive (if any) and no-enzyme controls. */
function inhibitionGroups(plan: EnzymePlan): Group[] {
  return [
    ...doseGroups(plan.inhibitor.name, plan.inhibitor.concentrations_um),
    { kind: "vehicle", label: "no inhibitor (vehicle, 0% inhibition)" },
    ...(plan.positive_control
      ? [{ kind: "positive", label: `positive control inhibitor ${plan.positive_control}` } as Group]
      : []),
    { kind: "blank", label: "no-enzyme blank (buffer instead of enzyme)" },
  ];
}

/** Enzyme (or buffer for the blanks) into every well, then its inhibitor dose or vehicle. */
function addEnzymeAndInhibitor(
  plan: EnzymePlan,
  builder: ProtocolBuilder,
  refs: { plate: string; buffer: string; vehicle: string },
  placed: readonly PlacedWell<Group>[],
  dilution: DilutionPlate,
): void {
  const volumes = VOLUMES[plan.plate_format];
  const { plate, buffer, vehicle } = refs;
  for (const { group, slot, well } of placed) {
    const source = group.kind === "blank" ? buffer : `enzyme_b${slot.biological}`;
    builder.transfer(builder.well(source, 0), builder.well(plate, well), volumes.enzyme);
    builder.label(plate, well, `${group.label} | ${plan.enzyme} | ${slot.label}`);
  }
  for (const { group, well } of placed) {
    const source = tenfoldSource(builder, group, { dilution, positiveKind: "positive", vehicleRef: vehicle });
    const held = volumes.enzyme + volumes.inhibitor;
    builder.transfer(source, builder.well(plate, well), volumes.inhibitor, mixVolumeFor(held));
  }
}

/** A dispenser fills whole columns at once, so every well starts its reaction together. */
function startReactions(
  plan: EnzymePlan,
  builder: ProtocolBuilder,
  plate: string,
  substrate: string,
  assayWells: readonly number[],
  plateType: ContainerType,
): void {
  const columns = [...new Set(assayWells.map((well) => well % plateType.columns))].sort((a, b) => a - b);
  const assaySet = new Set(assayWells);
  for (const column of columns) {
    for (let well = column; well < plateType.wells; well += plateType.columns) {
      if (!assaySet.has(well))
        builder.label(plate, well, "substrate only (filled by the column dispenser, not read)");
    }
  }
  builder.push({
    op: "dispense",
    object: plate,
    reagent_source: builder.well(substrate, 0),
    columns: columns.map((column) => ({ column, volume: microliters(VOLUMES[plan.plate_format].substrate) })),
  });
}

/** A kinetic absorbance read, or an endpoint luminescence read after the reaction time. */
function reads(
  plan: EnzymePlan,
  builder: ProtocolBuilder,
  readout: Readout,
  plate: string,
  assayWells: readonly number[],
  where: ReturnType<typeof incubatorFor>,
): Instruction[] {
  return readout.kind === "absorbance"
    ? [
        {
          op: "spectrophotometry",
          object: plate,
          dataref: `kinetic_a${readout.wavelengthNm}`,
          groups: [absorbanceGroup(builder, plate, assayWells, readout.wavelengthNm)],
          interval: minutes(KINETIC_INTERVAL_MINUTES),
          num_intervals: Math.floor(plan.incubation_minutes / KINETIC_INTERVAL_MINUTES) + 1,
          temperature: celsius(plan.temperature_c),
        },
      ]
    : [
        ...coveredIncubation(plate, where, minutes(plan.incubation_minutes)),
        luminescenceRead(plate, assayWells, `luminescence_${plan.incubation_minutes}min`),
      ];
}

/** What the lab must prepare in the containers the document only names. */
function noteEnzymeContainers(plan: EnzymePlan, builder: ProtocolBuilder): void {
  builder.note(
    `enzyme_b<n>: ${plan.enzyme} at 2.5x its final concentration in assay_buffer, one preparation per ` +
      `biological replicate; substrate_2x: ${plan.substrate} at 2x its final concentration in assay_buffer.`,
  );
  builder.note(
    `inhibitor_10x: ${plan.inhibitor.name} at 10x its highest final concentration; vehicle_buffer: assay ` +
      `buffer with the same solvent fraction, used as diluent and no-inhibitor control.`,
  );
  builder.note(
    `Enzyme and inhibitor are pre-incubated for ${ENZYME_PREINCUBATION_MINUTES} minutes (our default; the plan ` +
      `has no pre-incubation time) before the substrate starts the reaction.`,
  );
  if (plan.positive_control) {
    builder.note(`positive_control_10x: ${plan.positive_control} at 10x a fully inhibiting concentration.`);
  }
}
