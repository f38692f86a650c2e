import type { ContainerType } from "./containers.js";
import { aliquot, aspirate, microliters } from "./quantities.js";
import type {
  Aliquot,
  AutoprotocolDocument,
  ExistingRef,
  HandleLocation,
  Instruction,
  NewRef,
  Outs,
  StorageCondition,
  Transport,
} from "./types.js";

/** Mixing after a dispense: aspirate and dispense this many times at the destination. */
export const MIX_CYCLES = 3;

/**
 * Lab-specific identifiers (Strateos container ids "ct…", catalogue resource ids "rs…") are not
 * known when a plan is translated. Existing containers get `petri-binding:<ref name>` and
 * catalogue reagents `petri-resource:<slug>`; the submission step binds them to the lab's ids.
 */
export const BINDING_PREFIX = "petri-binding:";
export const RESOURCE_PREFIX = "petri-resource:";

export function resourceId(reagentName: string): string {
  const slug = reagentName
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `${RESOURCE_PREFIX}${slug || "unnamed-reagent"}`;
}

type Disposal = { store: StorageCondition } | "discard";

export interface TranslationResult {
  document: AutoprotocolDocument;
  /** What the document cannot say (manual steps, assumptions); for the caller to show. */
  notes: string[];
}

/** Collects refs, instructions, well labels and notes; pure, no I/O. */
export class ProtocolBuilder {
  private readonly refs: AutoprotocolDocument["refs"] = {};
  private readonly instructions: Instruction[] = [];
  private readonly outs: Outs = {};
  private readonly notes: string[] = [];

  /** A container the lab holds already: requester material or a working solution it prepares. */
  existing(name: string, disposal: Disposal): string {
    const ref: ExistingRef = { id: `${BINDING_PREFIX}${name}`, ...disposalFields(disposal) };
    return this.addRef(name, ref);
  }

  fresh(name: string, type: ContainerType, disposal: Disposal): string {
    const ref: NewRef = { new: type.shortname, ...disposalFields(disposal) };
    return this.addRef(name, ref);
  }

  push(...instructions: Instruction[]): void {
    this.instructions.push(...instructions);
  }

  /**
   * One tip: aspirate from `from`, dispense into `to`, then mix there with `mixVolumeUl` when
   * given (the caller knows how much liquid the destination then holds).
   */
  transfer(from: Aliquot, to: Aliquot, volumeUl: number, mixVolumeUl?: number): void {
    const dispense: Transport[] = [{ volume: microliters(volumeUl) }];
    if (mixVolumeUl !== undefined) {
      for (let cycle = 0; cycle < MIX_CYCLES; cycle += 1) {
        dispense.push({ volume: aspirate(mixVolumeUl) }, { volume: microliters(mixVolumeUl) });
      }
    }
    const locations: HandleLocation[] = [
      { location: from, transports: [{ volume: aspirate(volumeUl) }] },
      { location: to, transports: dispense },
    ];
    this.push({ op: "liquid_handle", locations });
  }

  /** Aspirate and drop the tip with its content (the last step of a serial dilution). */
  discard(from: Aliquot, volumeUl: number): void {
    this.push({
      op: "liquid_handle",
      locations: [{ location: from, transports: [{ volume: aspirate(volumeUl) }] }],
    });
  }

  label(ref: string, index: number, name: string): void {
    const wells = (this.outs[ref] ??= {});
    wells[String(index)] = { name };
  }

  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  well(ref: string, index: number): Aliquot {
    if (!(ref in this.refs)) throw new Error(`ref ${ref} used before it was declared`);
    return aliquot(ref, index);
  }

  get instructionCount(): number {
    return this.instructions.length;
  }

  build(): TranslationResult {
    return {
      document: { refs: this.refs, instructions: this.instructions, outs: this.outs },
      notes: [...this.notes],
    };
  }

  private addRef(name: string, ref: ExistingRef | NewRef): string {
    if (name in this.refs) throw new Error(`ref ${name} declared twice`);
    this.refs[name] = ref;
    return name;
  }
}

function disposalFields(disposal: Disposal): { store: { where: StorageCondition } } | { discard: true } {
  return disposal === "discard" ? { discard: true } : { store: { where: disposal.store } };
}

/** Half the liquid in the well, so mixing never draws air. */
export const mixVolumeFor = (wellVolumeUl: number): number => Math.round(wellVolumeUl * 50) / 100;
