import { containerType, reserveVolumeUl, type ContainerType } from "../containers.js";
import { ProtocolNotExpressibleError } from "../errors.js";
import { maxVolumeOf } from "../layout.js";
import { type ProtocolBuilder, mixVolumeFor } from "../protocol-builder.js";
import {
  type SerialDilutionPlan,
  describeSerialDilutionProblem,
  isSerialDilutionProblem,
  planSerialDilution,
} from "../serial-dilution.js";

/** Intermediate plates, smallest first: a PCR plate holds little, a deep-well plate a lot. */
const DILUTION_PLATES = ["96-pcr", "96-deep"] as const;
/** Ours: below about 20 µL, mixing in a well and tiny draws get unreliable. */
const MIN_DILUTION_WELL_UL = 20;

export interface DilutionPlate {
  ref: string;
  type: ContainerType;
  /** Robotized well of each concentration, in plan order. */
  wells: number[];
  plan: SerialDilutionPlan;
}

/**
 * A serial dilution of `stockRef` (at the top working concentration) with `diluentRef` in a
 * fresh intermediate plate, leaving `drawUl` to take from every well plus the plate's reserve.
 */
export function buildDilutionPlate(
  builder: ProtocolBuilder,
  options: {
    ref: string;
    stockRef: string;
    diluentRef: string;
    concentrations: readonly number[];
    drawUl: number;
    field: string;
    label: (index: number) => string;
  },
): DilutionPlate {
  let lastProblem = "";
  for (const shortname of DILUTION_PLATES) {
    const type = containerType(shortname);
    if (options.concentrations.length > type.wells) continue;
    const finalVolume = Math.max(options.drawUl + reserveVolumeUl(type), MIN_DILUTION_WELL_UL);
    const plan = planSerialDilution(options.concentrations, finalVolume, maxVolumeOf(type));
    if (isSerialDilutionProblem(plan)) {
      lastProblem = describeSerialDilutionProblem(plan);
      if (plan.kind === "well_overflow") continue;
      break;
    }
    const plate = builder.fresh(options.ref, type, "discard");
    const wells = options.concentrations.map((_, index) => index);
    wells.forEach((well, i) => {
      const diluent = plan.diluentUl[i] as number;
      if (diluent > 0)
        builder.transfer(builder.well(options.diluentRef, 0), builder.well(plate, well), diluent);
    });
    builder.transfer(builder.well(options.stockRef, 0), builder.well(plate, 0), plan.topVolumeUl);
    plan.transfersUl.forEach((volume, i) => {
      const held = (plan.diluentUl[i + 1] as number) + volume;
      builder.transfer(builder.well(plate, i), builder.well(plate, i + 1), volume, mixVolumeFor(held));
    });
    if (plan.discardUl > 0) builder.discard(builder.well(plate, wells.length - 1), plan.discardUl);
    wells.forEach((well, i) => builder.label(plate, well, options.label(i)));
    return { ref: plate, type, wells, plan };
  }
  throw new ProtocolNotExpressibleError([
    {
      field: options.field,
      message: lastProblem || "the dilution series does not fit an intermediate plate",
    },
  ]);
}
