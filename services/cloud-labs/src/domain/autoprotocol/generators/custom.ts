import type { CustomPlan } from "../../plan.js";
import { containerType } from "../containers.js";
import { ProtocolNotExpressibleError } from "../errors.js";
import { incubatorFor } from "../layout.js";
import type { ProtocolBuilder } from "../protocol-builder.js";
import { minutes, nanometers } from "../quantities.js";
import { coveredIncubation } from "../steps.js";
import type { Instruction } from "../types.js";

type Step = CustomPlan["steps"][number];

const INCUBATION = /^(incubate|grow|culture|cultivate)\b/i;
const READ = /^(read|measure)\b/i;
const WAVELENGTH = /\b(?:od\s?(\d{3,4})|(\d{3,4})\s?nm)\b/i;
/** A step doing more than one thing, or a read we have no settings for. */
const COMPOUND_OR_UNSUPPORTED = /\band\b|\bthen\b|;|,|fluoresc|luminesc|image|imaging/i;

/**
 * CUSTOM steps are free text, so only two step shapes are translated, and only when a step says
 * nothing else: an incubation ("Incubate/Grow/Culture ...", with duration and temperature) and an
 * absorbance read ("Read/Measure ... at 550 nm", "Measure OD600"). They act on the requester's
 * plate, an existing container. Any other step makes the whole plan "cannot be expressed", with
 * every offending step listed: a protocol that skipped steps would be a different experiment.
 */
export function buildCustomProtocol(plan: CustomPlan, builder: ProtocolBuilder): void {
  if (plan.steps.length === 0) {
    throw new ProtocolNotExpressibleError([{ field: "steps", message: "the plan has no steps" }]);
  }
  const plateType = containerType(plan.plate_format === "384-well" ? "384-flat" : "96-flat");
  const plate = "sample_plate";
  const problems: { field: string; message: string }[] = [];
  const instructions: Instruction[] = [];

  plan.steps.forEach((step, i) => {
    const translated = translateStep(step, i, plate, plateType.wells);
    if ("problem" in translated) problems.push(translated.problem);
    else instructions.push(...translated.instructions);
  });
  if (problems.length > 0) throw new ProtocolNotExpressibleError(problems);

  builder.existing(plate, "discard");
  builder.push(...instructions);
  builder.note(
    `sample_plate is the requester's ${plan.plate_format} plate, prepared as the steps assume; absorbance ` +
      `reads cover all ${plateType.wells} wells.`,
  );
}

function translateStep(
  step: Step,
  index: number,
  plate: string,
  wellCount: number,
): { instructions: Instruction[] } | { problem: { field: string; message: string } } {
  const action = step.action.trim().replace(/\.$/, "");
  const field = `steps[${index}]`;
  const unsupported = (message: string) => ({
    problem: { field: `${field}.action`, message: `step ${index + 1}: ${message}` },
  });

  if (COMPOUND_OR_UNSUPPORTED.test(action) && (INCUBATION.test(action) || READ.test(action))) {
    return unsupported(`"${action}" combines operations or needs a read we cannot set up`);
  }
  if (INCUBATION.test(action)) {
    if (step.duration_minutes === null || !(step.duration_minutes > 0) || step.temperature_c === null) {
      return unsupported(`"${action}" needs both a positive duration and a temperature`);
    }
    let where;
    try {
      where = incubatorFor(step.temperature_c, `${field}.temperature_c`);
    } catch (error) {
      if (error instanceof ProtocolNotExpressibleError) {
        return {
          problem: {
            field: `${field}.temperature_c`,
            message: `step ${index + 1}: ${error.fieldErrors[0]?.message}`,
          },
        };
      }
      throw error;
    }
    return {
      instructions: coveredIncubation(plate, where, minutes(step.duration_minutes)),
    };
  }
  if (READ.test(action)) {
    const match = WAVELENGTH.exec(action);
    const wavelength = Number(match?.[1] ?? match?.[2]);
    if (!match || !(wavelength >= 200 && wavelength <= 1000)) {
      return unsupported(`"${action}" names no absorbance wavelength between 200 and 1000 nm`);
    }
    return {
      instructions: [
        {
          op: "absorbance",
          object: plate,
          wells: Array.from({ length: wellCount }, (_, well) => String(well)),
          wavelength: nanometers(wavelength),
          num_flashes: 25,
          dataref: `step_${index + 1}_a${wavelength}`,
        },
      ],
    };
  }
  return unsupported(`"${action}" has no Autoprotocol op we can emit`);
}
