/**
 * Microbial growth matrix (reference notes 7.4): per condition, a block of culture wells
 * (biological x technical replicates) and one blank (the condition's medium, not inoculated);
 * 180 uL condition medium + 20 uL inoculum in a 96-well plate; lid on against evaporation; a t0
 * read, then incubation and an OD600 read every read interval until the duration is reached.
 * The listed options give no run time or read interval for a kinetic read, so the schedule is
 * written out as IncubateCells + AbsorbanceIntensity pairs, at most MAX_GROWTH_READS of them.
 */
import type { GrowthPlan } from "../../plan.js";
import { plateModel, readPlateRole } from "../catalog.js";
import { SllNotExpressibleError } from "../errors.js";
import {
  GEOMETRY,
  type PlacedBlock,
  packBlocks,
  plateCount,
  usableWells,
  volumeScale,
  wellSpan,
} from "../layout.js";
import type { SllProtocolBody, SllWell } from "../types.js";
import {
  addRead,
  at,
  celsius,
  isReadable,
  microliters,
  minutes,
  organismName,
  plain,
  requireSome,
  StepList,
} from "./common.js";

/** 72 h at one read every 5 min. */
export const MAX_GROWTH_READS = 864;

export function growthProtocol(plan: GrowthPlan): SllProtocolBody {
  requireSome(plan.conditions.length, "conditions");
  const list = new StepList();
  const geometry = GEOMETRY[plan.plate_format];
  const schedule = readSchedule(plan);
  const { technical, biological } = plan.replicates;
  const blocks = packBlocks(
    plan.conditions.map(() => technical * biological + 1),
    usableWells(geometry, false),
    "conditions",
  );
  const plates = Array.from({ length: plateCount(blocks) }, (_, i) => `plate ${i + 1}`);
  labelGrowthSamples(plan, list, plates);
  fillWells(plan, list, blocks, plates);
  incubateAndRead(plan, list, plates, schedule);
  return list.finish(plan.title, "ExperimentRoboticCellPreparation");
}

/** The run cut into read intervals; the last one may be shorter. */
interface Schedule {
  totalMinutes: number;
  interval: number;
  fullIntervals: number;
  remainder: number;
  reads: number;
}

const mediumLabel = (k: number) => `condition ${k} medium`;

function readSchedule(plan: GrowthPlan): Schedule {
  const totalMinutes = plan.duration_hours * 60;
  const interval = plan.read_interval_minutes;
  if (!(interval > 0) || !(totalMinutes > 0)) {
    throw new SllNotExpressibleError(
      "read_interval_minutes",
      "the duration and the read interval must be positive",
    );
  }
  const fullIntervals = Math.floor(totalMinutes / interval + 1e-9);
  const remainder = Number((totalMinutes - fullIntervals * interval).toFixed(6));
  const reads = fullIntervals + (remainder > 0 ? 1 : 0);
  if (reads > MAX_GROWTH_READS) {
    throw new SllNotExpressibleError(
      "read_interval_minutes",
      `the schedule needs ${reads} reads; at most ${MAX_GROWTH_READS} can be written out (lengthen the interval or shorten the run)`,
    );
  }

  return { totalMinutes, interval, fullIntervals, remainder, reads };
}

/** The plates, one medium per condition and one inoculum per culture. */
function labelGrowthSamples(plan: GrowthPlan, list: StepList, plates: readonly string[]): void {
  const { biological } = plan.replicates;
  for (const plate of plates) {
    list.add("LabelContainer", {
      Label: plate,
      Container: plateModel(readPlateRole(plan.plate_format, plan.detection_method)),
    });
  }
  plan.conditions.forEach((condition, k) => {
    const settings = condition.settings
      .map(
        (s) =>
          `${s.variable} = ${typeof s.value === "number" ? plain(s.value) : s.value}${s.unit ? ` ${s.unit}` : ""}`,
      )
      .join(", ");
    list.labelSample(
      mediumLabel(k + 1),
      `${plan.medium}, ${condition.label}`,
      `${plan.medium} with ${settings || condition.label}, final in-well values: the lab prepares it so they hold after the inoculum is added`,
    );
  });
  for (let b = 1; b <= biological; b++) {
    list.labelSample(
      `inoculum ${b}`,
      organismName(plan.organism),
      `independent culture ${b}; starting density set by the lab`,
    );
  }
}

/** Each condition's medium into its block (the last well is its blank), then the cultures. */
function fillWells(
  plan: GrowthPlan,
  list: StepList,
  blocks: readonly PlacedBlock[],
  plates: readonly string[],
): void {
  const scale = volumeScale(plan.plate_format);
  const { technical, biological } = plan.replicates;
  const wellsOf = (index: number): SllWell[] =>
    blocks[index]!.wells.map((well) => at(plates[blocks[index]!.plate - 1]!, well));
  plan.conditions.forEach((_, k) => {
    const block = blocks[k]!;
    list.add(
      "Transfer",
      { Source: mediumLabel(k + 1), Destination: wellsOf(k), Amount: microliters(180 * scale) },
      `condition ${k + 1}: ${wellSpan(block.wells)} of ${plates[block.plate - 1]}, the last well is its blank`,
    );
  });
  for (let b = 1; b <= biological; b++) {
    list.add("Transfer", {
      Source: `inoculum ${b}`,
      Destination: plan.conditions.flatMap((_, k) => wellsOf(k).slice((b - 1) * technical, b * technical)),
      Amount: microliters(20 * scale),
    });
  }
}

/** Covered incubation, read after every interval (or once at the end when nothing can be read). */
function incubateAndRead(plan: GrowthPlan, list: StepList, plates: string[], schedule: Schedule): void {
  const { totalMinutes, interval, fullIntervals, remainder, reads } = schedule;
  list.add("Cover", { Sample: plates }, "lid on against evaporation; reads through the lid");
  const wavelengthNm = plan.detection_method === "absorbance" ? 600 : null;
  if (isReadable(plan.detection_method)) {
    addRead(list, plan.detection_method, plates, { wavelengthNm, comment: "t0 read" });
  }
  const aeration =
    plan.aeration === "shaking"
      ? "shaking between reads, rate set by the lab"
      : plan.aeration === "static"
        ? "static"
        : "anaerobic";
  if (plan.aeration === "anaerobic") {
    list.note(
      "The run must be anaerobic: no listed SLL option sets the atmosphere, so the lab must arrange it.",
    );
  }
  if (!isReadable(plan.detection_method)) {
    list.add(
      "IncubateCells",
      { Sample: plates, Temperature: celsius(plan.temperature_c), Time: minutes(totalMinutes) },
      aeration,
    );
    addRead(list, plan.detection_method, plates);
    return;
  }
  for (let read = 1; read <= reads; read++) {
    const step = read <= fullIntervals ? interval : remainder;
    const elapsed = read <= fullIntervals ? read * interval : totalMinutes;
    list.add(
      "IncubateCells",
      { Sample: plates, Temperature: celsius(plan.temperature_c), Time: minutes(step) },
      read === 1 ? `${aeration}; ${plain(plan.duration_hours)} h in ${reads} intervals` : undefined,
    );
    addRead(list, plan.detection_method, plates, { wavelengthNm, comment: `read at ${plain(elapsed)} min` });
  }
}
