/** Instructions several generators issue in the same shape. */
import type { ProtocolBuilder } from "./protocol-builder.js";
import { nanometers, seconds } from "./quantities.js";
import type { IncubatorSetting, Instruction, Quantity, SpectrophotometryGroup } from "./types.js";

/** An incubation of one container; still and without CO2 unless asked. */
export function incubation(
  object: string,
  where: IncubatorSetting,
  duration: Quantity,
  options: { shaking?: boolean; co2Percent?: number } = {},
): Instruction {
  const { shaking = false, co2Percent = 0 } = options;
  return { op: "incubate", object, where, duration, shaking, co2_percent: co2Percent };
}

/** Lid on, a still incubation without CO2, lid off: the plate is ready for the next step. */
export function coveredIncubation(
  object: string,
  where: IncubatorSetting,
  duration: Quantity,
): Instruction[] {
  return [
    { op: "cover", object, lid: "standard" },
    incubation(object, where, duration),
    { op: "uncover", object },
  ];
}

/** A luminescence read of the given wells, integrating one second per well. */
export function luminescenceRead(object: string, wells: readonly number[], dataref: string): Instruction {
  return { op: "luminescence", object, wells: wells.map(String), integration_time: seconds(1), dataref };
}

/** A spectrophotometry group that reads the absorbance of the given wells at one wavelength. */
export function absorbanceGroup(
  builder: ProtocolBuilder,
  plate: string,
  wells: readonly number[],
  wavelengthNm: number,
): SpectrophotometryGroup {
  return {
    mode: "absorbance",
    mode_params: {
      wells: wells.map((well) => builder.well(plate, well)),
      wavelength: [nanometers(wavelengthNm)],
      num_flashes: 25,
    },
  };
}
