/**
 * Structural check of a protocol body: names from the allow-list, option values of the kind the
 * allow-list says, labels defined (once) before they are used, wells inside their container.
 * toSll runs it on everything it produces and renderSll on everything it renders.
 */
import { isSllFunction, operationSpec, SLL_FUNCTIONS, SLL_UNITS, type ValueKind } from "./allow-list.js";
import { containerByName, type ContainerModel } from "./catalog.js";
import type { SllProtocolBody, SllStep, SllValue } from "./types.js";

export interface SllProblem {
  /** Index of the step, or null for the protocol itself. */
  step: number | null;
  message: string;
}

type Dimension = (typeof SLL_UNITS)[keyof typeof SLL_UNITS];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const hasExactKeys = (value: Record<string, unknown>, keys: readonly string[]) => {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => Object.hasOwn(value, key));
};

function isQuantity(value: unknown, dimension: Dimension): boolean {
  if (!isObject(value) || !hasExactKeys(value, ["value", "unit"])) return false;
  const { value: amount, unit } = value;
  if (typeof amount !== "number" || !Number.isFinite(amount) || typeof unit !== "string") return false;
  if (!Object.hasOwn(SLL_UNITS, unit) || SLL_UNITS[unit as keyof typeof SLL_UNITS] !== dimension)
    return false;
  return dimension === "temperature" ? true : amount > 0;
}

function isReference(value: unknown, head: "model" | "object", heads: readonly string[]): boolean {
  if (!isObject(value) || !hasExactKeys(value, [head, "name"]) || typeof value.name !== "string")
    return false;
  const given = value[head];
  return Array.isArray(given) && given.length === heads.length && given.every((h, i) => h === heads[i]);
}

const isMaterial = (value: unknown) =>
  isReference(value, "model", ["Sample"]) || isReference(value, "object", ["Sample"]);

const isWell = (value: unknown): value is { well: string; label: string } =>
  isObject(value) &&
  hasExactKeys(value, ["well", "label"]) &&
  typeof value.well === "string" &&
  typeof value.label === "string";

function kindProblem(kind: ValueKind, value: unknown): string | null {
  const ok = (() => {
    switch (kind) {
      case "new-label":
        return typeof value === "string" && value.length > 0;
      case "refs": {
        const items = Array.isArray(value) ? value : [value];
        return items.length > 0 && items.every((item) => typeof item === "string" || isWell(item));
      }
      case "material":
        return isMaterial(value);
      case "materials":
        return Array.isArray(value) && value.length > 0 && value.every(isMaterial);
      case "primer-pairs":
        return (
          Array.isArray(value) &&
          value.every(
            (pairs) =>
              Array.isArray(pairs) &&
              pairs.length > 0 &&
              pairs.every((pair) => Array.isArray(pair) && pair.length === 2 && pair.every(isMaterial)),
          )
        );
      case "plate-model":
        return isReference(value, "model", ["Container", "Plate"]);
      case "volume":
        return isQuantity(value, "volume");
      case "volumes": {
        const items = Array.isArray(value) ? value : [value];
        return items.length > 0 && items.every((item) => isQuantity(item, "volume"));
      }
      case "time":
        return isQuantity(value, "time");
      case "temperature":
        return isQuantity(value, "temperature");
      case "wavelength":
        return isQuantity(value, "length");
      case "percent":
        return isQuantity(value, "percent");
      case "factors":
        return (
          Array.isArray(value) &&
          value.length > 0 &&
          value.every((item) => typeof item === "number" && Number.isFinite(item) && item > 1)
        );
      case "count":
        return typeof value === "number" && Number.isInteger(value) && value > 0;
      case "boolean":
        return typeof value === "boolean";
    }
  })();
  return ok ? null : `is not a valid ${kind} value`;
}

function stepProblems(step: SllStep, fnKind: "unit-operations" | "call", fn: string): string[] {
  const problems: string[] = [];
  if (!isObject(step)) return ["is not an object"];
  const spec = operationSpec(step.operation);
  if (!spec) return [`unknown operation ${JSON.stringify(step.operation)}`];
  if (fnKind === "call" && step.operation !== fn)
    problems.push(`${fn} takes one call of itself, not ${step.operation}`);
  if (fnKind === "unit-operations" && isSllFunction(step.operation)) {
    problems.push(`${step.operation} is a function, not a unit operation`);
  }
  if (step.comment !== undefined && typeof step.comment !== "string")
    problems.push("comment is not a string");
  const kinds: Record<string, ValueKind> = { ...spec.inputs, ...spec.options };
  for (const [key, value] of Object.entries(step)) {
    if (key === "operation" || key === "comment") continue;
    const kind = kinds[key];
    if (kind === undefined) {
      problems.push(`option ${JSON.stringify(key)} is not allowed for ${step.operation}`);
      continue;
    }
    const problem = kindProblem(kind, value);
    if (problem) problems.push(`${key} ${problem}`);
  }
  for (const key of spec.required) if (step[key] === undefined) problems.push(`${key} is required`);
  if (
    step.operation === "ExperimentqPCR" &&
    Array.isArray(step.Samples) &&
    Array.isArray(step.PrimerPairs) &&
    step.Samples.length !== step.PrimerPairs.length
  ) {
    problems.push("PrimerPairs must have one entry per sample");
  }
  return problems;
}

/** Every label a value refers to, with the well when it names one. */
function references(
  value: SllValue | undefined,
  kind: ValueKind | undefined,
): { label: string; well?: string }[] {
  if (kind !== "refs" || value === undefined) return [];
  const items = Array.isArray(value) ? (value as readonly SllValue[]) : [value];
  return items.flatMap((item) =>
    typeof item === "string"
      ? [{ label: item }]
      : isWell(item)
        ? [{ label: item.label, well: item.well }]
        : [],
  );
}

function wellInside(well: string, container: ContainerModel): boolean {
  const match = /^([A-Z])([1-9][0-9]?)$/.exec(well);
  if (!match) return false;
  const row = match[1]!.charCodeAt(0) - 65;
  const column = Number(match[2]) - 1;
  return row < container.rows && column < container.columns;
}

export function checkSllProtocol(protocol: SllProtocolBody): SllProblem[] {
  const problems: SllProblem[] = [];
  if (typeof protocol.name !== "string") problems.push({ step: null, message: "name is not a string" });
  if (!Array.isArray(protocol.notes) || !protocol.notes.every((note) => typeof note === "string")) {
    problems.push({ step: null, message: "notes must be strings" });
  }
  if (!isSllFunction(protocol.function)) {
    return [...problems, { step: null, message: `unknown function ${JSON.stringify(protocol.function)}` }];
  }
  const fnKind = SLL_FUNCTIONS[protocol.function].kind;
  if (!Array.isArray(protocol.steps) || protocol.steps.length === 0) {
    return [...problems, { step: null, message: "a protocol needs at least one step" }];
  }
  if (fnKind === "call" && protocol.steps.length !== 1) {
    problems.push({ step: null, message: `${protocol.function} is one call: exactly one step` });
  }

  const samples = new Set<string>();
  const containers = new Map<string, ContainerModel | undefined>();
  protocol.steps.forEach((step, index) => {
    const own = stepProblems(step, fnKind, protocol.function);
    for (const message of own) problems.push({ step: index, message });
    if (own.length > 0) return;
    const spec = operationSpec(step.operation)!;
    const kinds: Record<string, ValueKind> = spec.options;
    for (const [key, value] of Object.entries(step)) {
      for (const ref of references(value, kinds[key])) {
        if (ref.well === undefined) {
          if (!samples.has(ref.label) && !containers.has(ref.label)) {
            problems.push({
              step: index,
              message: `${key} refers to ${JSON.stringify(ref.label)} before it is labelled`,
            });
          }
          continue;
        }
        if (!containers.has(ref.label)) {
          problems.push({
            step: index,
            message: `${key} names a well of ${JSON.stringify(ref.label)}, which is not a labelled container`,
          });
          continue;
        }
        const container = containers.get(ref.label);
        if (container && !wellInside(ref.well, container)) {
          problems.push({
            step: index,
            message: `${key}: well ${JSON.stringify(ref.well)} is not in ${JSON.stringify(ref.label)}`,
          });
        }
      }
    }
    if (step.operation === "LabelContainer" || step.operation === "LabelSample") {
      const label = step.Label as string;
      if (samples.has(label) || containers.has(label)) {
        problems.push({ step: index, message: `label ${JSON.stringify(label)} is defined twice` });
      } else if (step.operation === "LabelContainer") {
        containers.set(label, containerByName((step.Container as { name: string }).name));
      } else samples.add(label);
    }
  });
  return problems;
}
