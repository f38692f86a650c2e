/**
 * Test support: follows Transfer and SerialDilute steps well by well, tracking each well's
 * volume, what reached it (source labels) and, for serial dilutions, the concentration relative
 * to the first well. SerialDilute fills the wells after its source in row-major order, adding
 * diluent = volume moved x (factor - 1), the semantics the generator assumes.
 */
import { containerByName } from "../../../src/domain/sll/catalog.js";
import { wellName } from "../../../src/domain/sll/layout.js";
import type { SllProtocolBody, SllQuantity, SllValue, SllWell } from "../../../src/domain/sll/types.js";

export interface WellState {
  volume: number;
  sources: Set<string>;
  /** Concentration relative to the series' first well (1 there), for wells of a serial dilution. */
  relative?: number;
}

const isWell = (value: SllValue): value is SllWell =>
  typeof value === "object" && value !== null && "well" in value;
const list = (value: SllValue | undefined): SllValue[] =>
  value === undefined ? [] : Array.isArray(value) ? [...(value as SllValue[])] : [value];
const key = (well: SllWell) => `${well.label}|${well.well}`;

export function simulate(protocol: SllProtocolBody): Map<string, WellState> {
  const wells = new Map<string, WellState>();
  const geometry = new Map<string, { rows: number; columns: number }>();
  const state = (k: string) => {
    let s = wells.get(k);
    if (!s) wells.set(k, (s = { volume: 0, sources: new Set() }));
    return s;
  };
  const nameOf = (value: SllValue) => (isWell(value) ? key(value) : (value as string));
  for (const step of protocol.steps) {
    if (step.operation === "LabelContainer") {
      const container = containerByName((step.Container as { name: string }).name)!;
      geometry.set(step.Label as string, container);
    }
    if (step.operation === "Transfer") {
      const sources = list(step.Source);
      const destinations = list(step.Destination);
      const amount = (step.Amount as SllQuantity).value;
      destinations.forEach((destination, i) => {
        const source = sources.length === 1 ? sources[0]! : sources[i]!;
        if (!isWell(destination)) return;
        const into = state(key(destination));
        into.volume += amount;
        into.sources.add(nameOf(source));
        if (isWell(source)) {
          const from = state(key(source));
          from.volume -= amount;
          for (const s of from.sources) into.sources.add(s);
        }
      });
    }
    if (step.operation === "SerialDilute") {
      const source = step.Source as SllWell;
      const { columns } = geometry.get(source.label)!;
      const match = /^([A-Z])(\d+)$/.exec(source.well)!;
      let index = (match[1]!.charCodeAt(0) - 65) * columns + Number(match[2]) - 1;
      const factors = step.SerialDilutionFactors as number[];
      const amounts = list(step.TransferAmounts).map((q) => (q as SllQuantity).value);
      let from = state(key(source));
      from.relative = 1;
      factors.forEach((factor, i) => {
        const moved = amounts.length === 1 ? amounts[0]! : amounts[i]!;
        index++;
        const to = state(`${source.label}|${wellName(Math.floor(index / columns), index % columns)}`);
        from.volume -= moved;
        to.volume += moved * factor;
        to.relative = from.relative! / factor;
        for (const s of from.sources) to.sources.add(s);
        to.sources.add(step.Diluent as string);
        from = to;
      });
    }
  }
  return wells;
}
