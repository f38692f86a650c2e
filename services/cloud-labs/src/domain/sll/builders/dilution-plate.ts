/** A dose series prepared at 10x in a deep-well dilution plate, then stamped into assay wells. */
import { CONTAINER_MODELS } from "../catalog.js";
import { dilutionFactors, peakWellVolume, serialTransferAmounts } from "../dilution.js";
import { SllNotExpressibleError } from "../errors.js";
import { GEOMETRY } from "../layout.js";
import { usableWells } from "../layout.js";
import type { SllWell } from "../types.js";
import { at, microliters, plain, type StepList } from "./common.js";

/** What the liquid handler cannot draw from the bottom of a well. [Petri default] */
export const DILUTION_DEAD_VOLUME_UL = 20;

export interface DilutionSeries {
  plateLabel: string;
  stockLabel: string;
  diluentLabel: string;
  concentrations: readonly number[];
  /** How much every well must give away in total (replicate transfers). */
  drawnUl: number;
  field: string;
  unitName: string;
}

export function addDilutionSeries(list: StepList, series: DilutionSeries): SllWell[] {
  const wells = usableWells(GEOMETRY["96-well"], false)
    .slice(0, series.concentrations.length)
    .map((well) => at(series.plateLabel, well));
  const keep = series.drawnUl + DILUTION_DEAD_VOLUME_UL;
  const capacity = CONTAINER_MODELS["deep-well-96"].max_volume_ul;
  const top = series.concentrations[0] ?? 0;
  const comment = `10x series: ${series.concentrations.length} concentrations, ${plain(10 * top)} to ${plain(10 * (series.concentrations[series.concentrations.length - 1] ?? 0))} ${series.unitName}, in ${series.plateLabel}; each well keeps ${plain(keep)} uL`;
  if (series.concentrations.length === 1) {
    list.add(
      "Transfer",
      { Source: series.stockLabel, Destination: wells[0], Amount: microliters(keep) },
      comment,
    );
    return wells;
  }
  const factors = dilutionFactors(series.concentrations, series.field);
  const amounts = serialTransferAmounts(factors, keep);
  if (peakWellVolume(amounts, keep) > capacity) {
    throw new SllNotExpressibleError(
      series.field,
      `the dilution series needs more than ${capacity} uL in one well; use fewer replicates or larger steps between concentrations`,
    );
  }
  list.add(
    "Transfer",
    {
      Source: series.stockLabel,
      Destination: wells[0],
      Amount: microliters(Number((keep + amounts[0]!).toFixed(1))),
    },
    comment,
  );
  list.add("SerialDilute", {
    Source: wells[0],
    SerialDilutionFactors: factors,
    TransferAmounts: amounts.map(microliters),
    Diluent: series.diluentLabel,
  });
  return wells;
}
