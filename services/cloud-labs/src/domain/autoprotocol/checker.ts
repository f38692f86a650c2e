import { CONTAINER_TYPES, type ContainerType } from "./containers.js";
import { parseAliquot, volumeInMicroliters } from "./quantities.js";
import { schemaViolations } from "./schema.js";
import type { AutoprotocolDocument, Instruction, SealType } from "./types.js";
import type { Violation } from "./violation.js";

export type { Violation } from "./violation.js";

/**
 * Rules of the semantic checker. Schema problems come first (rule "schema"); the semantic rules
 * run only on a document that has the schema's shape.
 */
export const CHECKER_RULES = {
  unknown_ref: "every container an instruction or outs names is declared in refs",
  well_out_of_range: "well indices and dispense columns lie within the container",
  well_not_in_object: "a read lists only wells of the container it reads",
  volume_negative: "no aspiration takes more than the well holds",
  volume_over_capacity: "no well ever holds more than its container type allows",
  tip_overdraw: "a liquid_handle dispenses only what its tip aspirated",
  closure_required: "incubate and spin need a lid or seal; thermocycle needs a seal",
  closure_blocks_access: "liquid goes in or out only of an uncovered, unsealed container",
  closure_state: "no lid or seal on top of another; uncover only a lidded container",
  read_through_closure: "plate reads need an uncovered plate or an ultra-clear seal",
  read_empty_well: "a read well holds liquid",
  dye_on_empty_well: "thermocycle dyes name only wells that hold liquid",
  optical_seal_required: "a thermocycle that reads dyes needs an ultra-clear seal",
  duplicate_dataref: "every dataref names one dataset",
} as const;

export type CheckerRule = keyof typeof CHECKER_RULES;

const EPSILON_UL = 1e-6;

/** The instruction of one op (or of several ops that share a check). */
type Op<Name extends Instruction["op"]> = Extract<Instruction, { op: Name }>;

type Closure = { kind: "none" } | { kind: "lid" } | { kind: "seal"; type: SealType };

interface ContainerState {
  name: string;
  /** Null for an existing container: its type and contents are the lab's, not in the document. */
  type: ContainerType | null;
  closure: Closure;
  /** µL per well, tracked for new containers only. */
  volumes: Map<number, number>;
}

/** Schema first, then the semantic rules; an empty list means the document is fine. */
export function checkAutoprotocol(document: unknown): Violation[] {
  const schemaProblems = schemaViolations(document);
  if (schemaProblems.length > 0) return schemaProblems;
  return new Checker(document as AutoprotocolDocument).run();
}

class Checker {
  private readonly violations: Violation[] = [];
  private readonly containers = new Map<string, ContainerState>();
  private readonly datarefs = new Map<string, string>();

  constructor(private readonly document: AutoprotocolDocument) {
    for (const [name, ref] of Object.entries(document.refs)) {
      const type = "new" in ref ? (CONTAINER_TYPES[ref.new] ?? null) : null;
      this.containers.set(name, { name, type, closure: { kind: "none" }, volumes: new Map() });
    }
  }

  run(): Violation[] {
    this.document.instructions.forEach((instruction, i) => this.apply(instruction, `/instructions/${i}`));
    for (const [ref, wells] of Object.entries(this.document.outs)) {
      const container = this.container(ref, `/outs/${ref}`);
      if (!container) continue;
      for (const index of Object.keys(wells))
        this.checkIndex(container, Number(index), `/outs/${ref}/${index}`);
    }
    return this.violations;
  }

  private add(path: string, rule: CheckerRule, message: string): void {
    this.violations.push({ path, rule, message });
  }

  private apply(instruction: Instruction, path: string): void {
    switch (instruction.op) {
      case "provision":
        return this.provision(instruction, path);
      case "liquid_handle":
        return this.liquidHandle(instruction, path);
      case "dispense":
        return this.dispense(instruction, path);
      case "spread":
        return this.spread(instruction, path);
      case "cover":
      case "seal":
        return this.close(instruction, path);
      case "uncover":
        return this.uncover(instruction, path);
      case "incubate":
      case "spin":
        return this.requireClosure(instruction, path);
      case "absorbance":
      case "luminescence":
        return this.plateRead(instruction, path);
      case "spectrophotometry":
        return this.spectrophotometry(instruction, path);
      case "thermocycle":
        return this.thermocycle(instruction, path);
      case "image_plate":
        this.container(instruction.object, `${path}/object`);
        this.useDataref(instruction.dataref, `${path}/dataref`);
        return;
    }
  }

  private provision(instruction: Op<"provision">, path: string): void {
    instruction.to.forEach((target, t) => {
      const well = this.well(target.well, `${path}/to/${t}/well`);
      if (!well) return;
      this.requireOpen(well.container, path, "provision");
      this.changeVolume(well.container, well.index, this.volume(target.volume), `${path}/to/${t}/volume`);
    });
  }

  private liquidHandle(instruction: Op<"liquid_handle">, path: string): void {
    let tipUl = 0;
    instruction.locations.forEach((location, l) => {
      const well = this.well(location.location, `${path}/locations/${l}/location`);
      if (well) this.requireOpen(well.container, path, "liquid_handle");
      location.transports.forEach((transport, t) => {
        const volume = this.volume(transport.volume);
        const transportPath = `${path}/locations/${l}/transports/${t}/volume`;
        if (volume > 0 && volume > tipUl + EPSILON_UL) {
          this.add(
            transportPath,
            "tip_overdraw",
            `dispenses ${volume} µL but the tip holds ${round(tipUl)} µL`,
          );
        }
        tipUl = Math.max(0, tipUl - volume);
        if (well) this.changeVolume(well.container, well.index, volume, transportPath);
      });
    });
  }

  private dispense(instruction: Op<"dispense">, path: string): void {
    const container = this.container(instruction.object, `${path}/object`);
    const source = this.well(instruction.reagent_source, `${path}/reagent_source`);
    if (source) this.requireOpen(source.container, path, "dispense");
    if (!container) return;
    this.requireOpen(container, path, "dispense");
    instruction.columns.forEach((column, c) => {
      const columnPath = `${path}/columns/${c}`;
      if (!container.type) return;
      if (column.column >= container.type.columns) {
        this.add(
          `${columnPath}/column`,
          "well_out_of_range",
          `${container.name} has ${container.type.columns} columns`,
        );
        return;
      }
      const volume = this.volume(column.volume);
      for (let index = column.column; index < container.type.wells; index += container.type.columns) {
        if (source) this.changeVolume(source.container, source.index, -volume, `${columnPath}/volume`);
        this.changeVolume(container, index, volume, `${columnPath}/volume`);
      }
    });
  }

  private spread(instruction: Op<"spread">, path: string): void {
    const from = this.well(instruction.from, `${path}/from`);
    const to = this.well(instruction.to, `${path}/to`);
    const volume = this.volume(instruction.volume);
    if (from) {
      this.requireOpen(from.container, path, "spread");
      this.changeVolume(from.container, from.index, -volume, `${path}/volume`);
    }
    if (to) {
      this.requireOpen(to.container, path, "spread");
      this.changeVolume(to.container, to.index, volume, `${path}/volume`);
    }
  }

  private close(instruction: Op<"cover" | "seal">, path: string): void {
    const container = this.container(instruction.object, `${path}/object`);
    if (!container) return;
    if (container.closure.kind !== "none") {
      this.add(path, "closure_state", `${container.name} already has a ${container.closure.kind}`);
    }
    container.closure =
      instruction.op === "cover" ? { kind: "lid" } : { kind: "seal", type: instruction.type };
  }

  private uncover(instruction: Op<"uncover">, path: string): void {
    const container = this.container(instruction.object, `${path}/object`);
    if (!container) return;
    if (container.closure.kind !== "lid") {
      this.add(path, "closure_state", `${container.name} has no lid to remove (${container.closure.kind})`);
    }
    container.closure = { kind: "none" };
  }

  private requireClosure(instruction: Op<"incubate" | "spin">, path: string): void {
    const container = this.container(instruction.object, `${path}/object`);
    if (container && container.closure.kind === "none" && !isTube(container)) {
      this.add(path, "closure_required", `${instruction.op} of ${container.name} needs a lid or a seal`);
    }
  }

  private plateRead(instruction: Op<"absorbance" | "luminescence">, path: string): void {
    const container = this.container(instruction.object, `${path}/object`);
    this.useDataref(instruction.dataref, `${path}/dataref`);
    if (!container) return;
    this.requireReadable(container, path);
    instruction.wells.forEach((index, w) =>
      this.requireLiquid(container, Number(index), `${path}/wells/${w}`),
    );
  }

  private spectrophotometry(instruction: Op<"spectrophotometry">, path: string): void {
    const container = this.container(instruction.object, `${path}/object`);
    this.useDataref(instruction.dataref, `${path}/dataref`);
    if (!container) return;
    this.requireReadable(container, path);
    instruction.groups.forEach((group, g) => {
      if (group.mode !== "absorbance") return;
      group.mode_params.wells.forEach((text, w) => {
        const wellPath = `${path}/groups/${g}/mode_params/wells/${w}`;
        const well = this.well(text, wellPath);
        if (!well) return;
        if (well.container !== container) {
          this.add(wellPath, "well_not_in_object", `${text} is not a well of ${container.name}`);
          return;
        }
        this.requireLiquid(container, well.index, wellPath);
      });
    });
  }

  private thermocycle(instruction: Op<"thermocycle">, path: string): void {
    const container = this.container(instruction.object, `${path}/object`);
    if (instruction.dataref) this.useDataref(instruction.dataref, `${path}/dataref`);
    if (!container) return;
    if (container.closure.kind !== "seal") {
      this.add(path, "closure_required", `thermocycle of ${container.name} needs a seal`);
    } else if (instruction.dyes && container.closure.type !== "ultra-clear") {
      this.add(path, "optical_seal_required", `reading dyes through a ${container.closure.type} seal`);
    }
    const capacity = container.type?.maxVolumeUl ?? null;
    const volume = this.volume(instruction.volume);
    if (capacity !== null && volume > capacity + EPSILON_UL) {
      this.add(`${path}/volume`, "volume_over_capacity", `${volume} µL exceeds the ${capacity} µL well`);
    }
    for (const [dye, wells] of Object.entries(instruction.dyes ?? {})) {
      wells.forEach((index, w) => {
        const wellPath = `${path}/dyes/${dye}/${w}`;
        if (!this.checkIndex(container, index, wellPath)) return;
        if (!this.hasLiquid(container, index)) {
          this.add(
            wellPath,
            "dye_on_empty_well",
            `${dye} is read in ${container.name}/${index}, which is empty`,
          );
        }
      });
    }
  }

  private container(name: string, path: string): ContainerState | null {
    const container = this.containers.get(name);
    if (!container) {
      this.add(path, "unknown_ref", `${name} is not declared in refs`);
      return null;
    }
    return container;
  }

  private well(text: string, path: string): { container: ContainerState; index: number } | null {
    const parsed = parseAliquot(text);
    if (!parsed) return null;
    const container = this.container(parsed.ref, path);
    if (!container || !this.checkIndex(container, parsed.index, path)) return null;
    return { container, index: parsed.index };
  }

  private checkIndex(container: ContainerState, index: number, path: string): boolean {
    if (container.type && index >= container.type.wells) {
      this.add(
        path,
        "well_out_of_range",
        `${container.name} (${container.type.shortname}) has no well ${index}`,
      );
      return false;
    }
    return true;
  }

  private volume(text: string): number {
    return volumeInMicroliters(text) ?? 0;
  }

  private changeVolume(container: ContainerState, index: number, deltaUl: number, path: string): void {
    if (!container.type) return;
    const before = container.volumes.get(index) ?? 0;
    const after = before + deltaUl;
    if (after < -EPSILON_UL) {
      this.add(
        path,
        "volume_negative",
        `takes ${round(-deltaUl)} µL from ${container.name}/${index}, which holds ${round(before)} µL`,
      );
    }
    const capacity = container.type.maxVolumeUl;
    if (capacity !== null && after > capacity + EPSILON_UL) {
      this.add(
        path,
        "volume_over_capacity",
        `${container.name}/${index} would hold ${round(after)} µL; a ${container.type.shortname} well holds ${capacity} µL`,
      );
    }
    container.volumes.set(index, Math.max(0, after));
  }

  private hasLiquid(container: ContainerState, index: number): boolean {
    return container.type === null || (container.volumes.get(index) ?? 0) > EPSILON_UL;
  }

  private requireLiquid(container: ContainerState, index: number, path: string): void {
    if (!this.checkIndex(container, index, path)) return;
    if (!this.hasLiquid(container, index)) {
      this.add(path, "read_empty_well", `${container.name}/${index} is read but holds no liquid`);
    }
  }

  private requireOpen(container: ContainerState, path: string, op: string): void {
    if (container.closure.kind !== "none" && !isTube(container)) {
      this.add(
        path,
        "closure_blocks_access",
        `${op} reaches into ${container.name} under a ${container.closure.kind}`,
      );
    }
  }

  private requireReadable(container: ContainerState, path: string): void {
    const closure = container.closure;
    if (closure.kind === "lid" || (closure.kind === "seal" && closure.type !== "ultra-clear")) {
      const what = closure.kind === "lid" ? "a lid" : `a ${closure.type} seal`;
      this.add(path, "read_through_closure", `${container.name} is read through ${what}`);
    }
  }

  private useDataref(dataref: string, path: string): void {
    const first = this.datarefs.get(dataref);
    if (first !== undefined) {
      this.add(path, "duplicate_dataref", `dataref ${dataref} is already used at ${first}`);
      return;
    }
    this.datarefs.set(dataref, path);
  }
}

/** Tubes need no lid for incubation or access (notes 5.3: "tubes exempt"). */
const isTube = (container: ContainerState): boolean =>
  container.type !== null && container.type.shortname.startsWith("micro-");

const round = (value: number): number => Math.round(value * 100) / 100;
