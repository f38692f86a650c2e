/**
 * The plate layout IC50 assays share (cells and enzymes): per replicate block, the n test
 * wells of the series, a zero-effect control (vehicle / no inhibitor), a full-effect control
 * when the plan names one (kill / positive inhibitor) and a blank; blocks packed onto as many
 * assay plates as they need, each plate labelled.
 */
import type { DetectionMethod, PlateFormat, Replicates } from "../../plan.js";
import { plateModel, readPlateRole } from "../catalog.js";
import { GEOMETRY, type PlacedBlock, packBlocks, plateCount, usableWells, wellSpan } from "../layout.js";
import type { SllWell } from "../types.js";
import { type StepList, at, microliters } from "./common.js";
import { addDilutionSeries } from "./dilution-plate.js";

export interface DoseResponseLayout {
  plates: string[];
  /** One per replicate block: its plate (1-based) and wells. */
  blocks: PlacedBlock[];
  /** Per replicate block, the n wells of the series (highest concentration first). */
  testWells: SllWell[][];
  zeroEffectWells: SllWell[];
  fullEffectWells: SllWell[];
  blankWells: SllWell[];
}

export function doseResponseLayout(
  list: StepList,
  options: {
    points: number;
    replicates: Replicates;
    fullEffectControl: boolean;
    plateFormat: PlateFormat;
    detectionMethod: DetectionMethod;
    /** Keep the outer wells empty (an evaporation moat for cells). */
    moat: boolean;
    /** The plan field the series comes from (named when it does not fit). */
    field: string;
    plateLabel: string;
  },
): DoseResponseLayout {
  const n = options.points;
  const blocks = packBlocks(
    Array.from(
      { length: options.replicates.technical * options.replicates.biological },
      () => n + 2 + (options.fullEffectControl ? 1 : 0),
    ),
    usableWells(GEOMETRY[options.plateFormat], options.moat),
    options.field,
  );
  const plates = Array.from({ length: plateCount(blocks) }, (_, i) => `${options.plateLabel} ${i + 1}`);
  const wellsOf = (index: number): SllWell[] =>
    blocks[index]!.wells.map((well) => at(plates[blocks[index]!.plate - 1]!, well));
  const role = (offset: number) => blocks.map((_, i) => wellsOf(i)[n + offset]!);
  for (const plate of plates)
    list.add("LabelContainer", {
      Label: plate,
      Container: plateModel(readPlateRole(options.plateFormat, options.detectionMethod)),
    });
  return {
    plates,
    blocks,
    testWells: blocks.map((_, i) => wellsOf(i).slice(0, n)),
    zeroEffectWells: role(0),
    fullEffectWells: options.fullEffectControl ? role(1) : [],
    blankWells: role(options.fullEffectControl ? 2 : 1),
  };
}

/** The 10x series (in µM) in the dilution plate, enough for every replicate block of the layout. */
export function addTenfoldSeries(
  list: StepList,
  layout: DoseResponseLayout,
  series: {
    stockLabel: string;
    diluentLabel: string;
    concentrations: readonly number[];
    volumeUl: number;
    field: string;
  },
): SllWell[] {
  return addDilutionSeries(list, {
    plateLabel: "dilution plate",
    stockLabel: series.stockLabel,
    diluentLabel: series.diluentLabel,
    concentrations: series.concentrations,
    drawnUl: layout.blocks.length * series.volumeUl,
    field: series.field,
    unitName: "uM",
  });
}

/**
 * The series stamped into each replicate block's test wells, the diluent into the zero-effect
 * controls and the blanks, and the full-effect control (when the plan names one) into its wells.
 */
export function stampTenfoldSeries(
  list: StepList,
  layout: DoseResponseLayout,
  stamp: {
    seriesWells: SllWell[];
    volumeUl: number;
    diluentLabel: string;
    diluentComment: string;
    fullEffectComment: string;
  },
): void {
  const { plates, testWells, blocks } = layout;
  testWells.forEach((wells, i) => {
    const block = blocks[i]!;
    list.add(
      "Transfer",
      { Source: stamp.seriesWells, Destination: wells, Amount: microliters(stamp.volumeUl) },
      `replicate block ${i + 1}: ${wellSpan(block.wells)} of ${plates[block.plate - 1]}`,
    );
  });
  list.add(
    "Transfer",
    {
      Source: stamp.diluentLabel,
      Destination: [...layout.zeroEffectWells, ...layout.blankWells],
      Amount: microliters(stamp.volumeUl),
    },
    stamp.diluentComment,
  );
  if (layout.fullEffectWells.length > 0) {
    list.add(
      "Transfer",
      {
        Source: "positive control",
        Destination: layout.fullEffectWells,
        Amount: microliters(stamp.volumeUl),
      },
      stamp.fullEffectComment,
    );
  }
}
