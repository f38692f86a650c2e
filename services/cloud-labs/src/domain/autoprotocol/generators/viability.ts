import type { ViabilityPlan } from "../../plan.js";
import { type ContainerType, edgeWells, innerWells } from "../containers.js";
import { ProtocolNotExpressibleError, ProtocolTooLargeError } from "../errors.js";
import { WellAllocator, assayPlate, replicateSlots } from "../layout.js";
import { type ProtocolBuilder, resourceId } from "../protocol-builder.js";
import { hours, microliters, minutes } from "../quantities.js";
import { incubation, luminescenceRead } from "../steps.js";
import type { DilutionPlate } from "./dilution-plate.js";
import type { DoseGroup, PlacedWell } from "./dose-series.js";
import { buildTenfoldSeries, doseGroups, placeGroups, tenfoldSource } from "./dose-series.js";

/**
 * Volumes per well: cells, treatment (10x), CellTiter-Glo (equal to the medium volume, Promega
 * guidance quoted in the notes) and the edge moat. 96-well: 90 + 10 + 100 µL and a 100 µL moat
 * as in skeleton B. 384-well (white low-volume plate, 40 µL wells): 9 + 1 + 10 µL and a 20 µL
 * moat, our scaling of the same ratios.
 */
const VOLUMES = {
  "96-well": { cells: 90, treatment: 10, reagent: 100, moat: 100 },
  "384-well": { cells: 9, treatment: 1, reagent: 10, moat: 20 },
} as const;

/** Cell viability IC50 with CellTiter-Glo (notes 5.5, skeleton B). */
export function buildViabilityProtocol(plan: ViabilityPlan, builder: ProtocolBuilder): void {
  requireExpressible(plan);
  const volumes = VOLUMES[plan.plate_format];
  const plateType = assayPlate(plan.plate_format, "white");
  const slots = replicateSlots(plan.replicates);
  const groups = treatmentGroups(plan);
  const inner = innerWells(plateType);
  const needed = groups.length * slots.length;
  if (needed > inner.length) {
    throw new ProtocolTooLargeError(
      "plate_format",
      needed,
      inner.length,
      `inner wells of one ${plateType.shortname} plate (the outer ring is the evaporation moat)`,
    );
  }

  const plate = builder.fresh("cell_plate", plateType, "discard");
  const medium = builder.existing("culture_medium", "discard");
  for (let b = 1; b <= plan.replicates.biological; b += 1) builder.existing(`cells_b${b}`, "discard");
  const stock = builder.existing("compound_10x", { store: "cold_20" });
  const vehicle = builder.existing("vehicle_medium", "discard");
  if (plan.positive_control) builder.existing("positive_control_10x", { store: "cold_20" });

  const placed = placeGroups(new WellAllocator(plateType, inner), groups, slots);
  const refs = { plate, medium, vehicle };
  seedCells(plan, builder, refs, placed, plateType);

  const dilution = buildTenfoldSeries(builder, {
    name: plan.compound.name,
    stockRef: stock,
    vehicleRef: vehicle,
    concentrationsUm: plan.compound.concentrations_um,
    drawUl: slots.length * volumes.treatment,
    field: "compound.concentrations_um",
  });
  treatCells(plan, builder, refs, placed, dilution);
  readCellTiterGlo(
    plan,
    builder,
    plate,
    placed.map((p) => p.well),
  );
  noteViabilityContainers(plan, builder);
}

type Group = DoseGroup<"vehicle" | "kill" | "blank">;

interface PlateRefs {
  plate: string;
  medium: string;
  vehicle: string;
}

/** Only CellTiter-Glo is in our protocol table, and there must be a concentration to test. */
function requireExpressible(plan: ViabilityPlan): void {
  if (plan.assay_type !== "CELLTITER_GLO") {
    throw new ProtocolNotExpressibleError([
      {
        field: "assay_type",
        message:
          `${plan.assay_type}: only CellTiter-Glo (luminescence) reagent additions and read settings are in ` +
          `our protocol table; other viability readouts need a lab-specific protocol`,
      },
    ]);
  }
  if (plan.compound.concentrations_um.length === 0) {
    throw new ProtocolNotExpressibleError([
      { field: "compound.concentrations_um", message: "no concentration to test" },
    ]);
  }
}

/** One group per dose, then the vehicle, kill (if any) and no-cell controls. */
function treatmentGroups(plan: ViabilityPlan): Group[] {
  return [
    ...doseGroups(plan.compound.name, plan.compound.concentrations_um),
    { kind: "vehicle", label: `vehicle control (${plan.solvent} only, 0% effect)` },
    ...(plan.positive_control
      ? [{ kind: "kill", label: `kill control (${plan.positive_control}, 100% effect)` } as Group]
      : []),
    { kind: "blank", label: "no-cell blank (medium only)" },
  ];
}

/** Seeding: the moat and the blanks get medium, the rest cells (one suspension per biological replicate). */
function seedCells(
  plan: ViabilityPlan,
  builder: ProtocolBuilder,
  refs: PlateRefs,
  placed: readonly PlacedWell<Group>[],
  plateType: ContainerType,
): void {
  const volumes = VOLUMES[plan.plate_format];
  const { plate, medium } = refs;
  for (const well of edgeWells(plateType)) {
    builder.transfer(builder.well(medium, 0), builder.well(plate, well), volumes.moat);
    builder.label(plate, well, "edge moat (medium only, not read)");
  }
  for (const { group, slot, well } of placed) {
    const source = group.kind === "blank" ? medium : `cells_b${slot.biological}`;
    builder.transfer(builder.well(source, 0), builder.well(plate, well), volumes.cells);
    builder.label(plate, well, `${group.label} | ${plan.cell_line} | ${slot.label}`);
  }
  builder.push(
    { op: "cover", object: plate, lid: "standard" },
    incubation(plate, "warm_37", hours(24), { co2Percent: 5 }),
  );
}

/** Each well gets its dose from the dilution plate, the kill control or the vehicle. */
function treatCells(
  plan: ViabilityPlan,
  builder: ProtocolBuilder,
  refs: PlateRefs,
  placed: readonly PlacedWell<Group>[],
  dilution: DilutionPlate,
): void {
  const { plate, vehicle } = refs;
  builder.push({ op: "uncover", object: plate });
  for (const { group, well } of placed) {
    const source = tenfoldSource(builder, group, { dilution, positiveKind: "kill", vehicleRef: vehicle });
    builder.transfer(source, builder.well(plate, well), VOLUMES[plan.plate_format].treatment);
  }
}

/** Exposure, room-temperature equilibration, CellTiter-Glo, mixing, settling, luminescence. */
function readCellTiterGlo(
  plan: ViabilityPlan,
  builder: ProtocolBuilder,
  plate: string,
  assayWells: readonly number[],
): void {
  const volumes = VOLUMES[plan.plate_format];
  const celltiterGlo = resourceId("CellTiter-Glo reagent");
  builder.push(
    { op: "cover", object: plate, lid: "standard" },
    incubation(plate, "warm_37", hours(plan.exposure_hours), { co2Percent: 5 }),
    // Equilibrate to room temperature before the reagent (Promega guidance, notes 5.5).
    incubation(plate, "ambient", minutes(30)),
    { op: "uncover", object: plate },
    {
      op: "provision",
      resource_id: celltiterGlo,
      to: assayWells.map((well) => ({
        well: builder.well(plate, well),
        volume: microliters(volumes.reagent),
      })),
    },
    { op: "cover", object: plate, lid: "standard" },
    incubation(plate, "ambient", minutes(2), { shaking: true }),
    incubation(plate, "ambient", minutes(10)),
    { op: "uncover", object: plate },
    luminescenceRead(plate, assayWells, `ctg_${String(plan.exposure_hours).replace(".", "_")}h`),
  );
}

/** What the lab must prepare in the containers the document only names. */
function noteViabilityContainers(plan: ViabilityPlan, builder: ProtocolBuilder): void {
  const volumes = VOLUMES[plan.plate_format];
  builder.note(
    `cells_b<n>: one ${plan.cell_line} suspension per biological replicate at ` +
      `${plan.seeding_density_cells_per_well} cells per ${volumes.cells} µL; culture_medium: the same medium ` +
      `without cells.`,
  );
  builder.note(
    `compound_10x: ${plan.compound.name} at 10x its highest final concentration in culture medium; ` +
      `vehicle_medium: culture medium with the same ${plan.solvent} fraction, used as diluent and vehicle control.`,
  );
  if (plan.positive_control) {
    builder.note(`positive_control_10x: ${plan.positive_control} at 10x a fully cytotoxic concentration.`);
  }
}
