/**
 * What the IC50 generators (cells and enzymes) share: one well group per dose of the 10x series
 * followed by the plan's controls, every group in every replicate slot, and the doses drawn from
 * a serial dilution of the 10x stock with the vehicle.
 */
import { type ReplicateSlot, type WellAllocator, formatConcentration } from "../layout.js";
import type { ProtocolBuilder } from "../protocol-builder.js";
import type { Aliquot } from "../types.js";
import { type DilutionPlate, buildDilutionPlate } from "./dilution-plate.js";

/** A dose of the series (its index in plan order) or one of the assay's controls. */
export interface DoseGroup<Control extends string> {
  kind: "dose" | Control;
  dose?: number;
  label: string;
}

export interface PlacedWell<Group> {
  group: Group;
  slot: ReplicateSlot;
  well: number;
}

/** One group per concentration, labelled "<compound> <concentration> µM". */
export function doseGroups(name: string, concentrationsUm: readonly number[]): DoseGroup<never>[] {
  return concentrationsUm.map((value, dose) => ({
    kind: "dose",
    dose,
    label: `${name} ${formatConcentration(value)} µM`,
  }));
}

/** Every group in every replicate slot, group by group, in the allocator's order. */
export function placeGroups<Group>(
  allocator: WellAllocator,
  groups: readonly Group[],
  slots: readonly ReplicateSlot[],
): PlacedWell<Group>[] {
  return groups.flatMap((group) => slots.map((slot) => ({ group, slot, well: allocator.takeOne() })));
}

/** The 10x dose series of `name`, diluted from `stockRef` with `vehicleRef` on "dilution_plate". */
export function buildTenfoldSeries(
  builder: ProtocolBuilder,
  options: {
    name: string;
    stockRef: string;
    vehicleRef: string;
    concentrationsUm: readonly number[];
    drawUl: number;
    field: string;
  },
): DilutionPlate {
  const { name, concentrationsUm } = options;
  return buildDilutionPlate(builder, {
    ref: "dilution_plate",
    stockRef: options.stockRef,
    diluentRef: options.vehicleRef,
    concentrations: concentrationsUm,
    drawUl: options.drawUl,
    field: options.field,
    label: (i) => `${name} at 10x ${formatConcentration(concentrationsUm[i] as number)} µM`,
  });
}

/** Where a well's 10x addition comes from: its dose, the 10x positive control, or the vehicle. */
export function tenfoldSource<Control extends string>(
  builder: ProtocolBuilder,
  group: DoseGroup<Control>,
  sources: { dilution: DilutionPlate; positiveKind: Control; vehicleRef: string },
): Aliquot {
  const { dilution, positiveKind, vehicleRef } = sources;
  if (group.kind === "dose")
    return builder.well(dilution.ref, dilution.wells[group.dose as number] as number);
  if (group.kind === positiveKind) return builder.well("positive_control_10x", 0);
  return builder.well(vehicleRef, 0);
}
