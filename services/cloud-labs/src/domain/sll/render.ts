/**
 * SLL text from a protocol body. Deterministic: options in allow-list order (whatever the JSON
 * key order), one unit operation per line, quantities as `100 Microliter`. Only allow-listed
 * names are written as code; every string (labels, names, comments) goes through `wlString`
 * (see escape.ts for the escaping rules), and comments hold nothing but one escaped literal.
 */
import { SLL_FUNCTIONS, SLL_OPERATIONS, SLL_TYPE_HEADS, SLL_UNITS } from "./allow-list.js";
import { checkSllProtocol } from "./check.js";
import { SllRenderError } from "./errors.js";
import { wlComment, wlNumber, wlString } from "./escape.js";
import type { SllProtocolBody, SllStep, SllValue } from "./types.js";

const MAX_PROBLEMS_SHOWN = 5;

function renderHeads(heads: readonly string[]): string {
  for (const head of heads) {
    if (!(SLL_TYPE_HEADS as readonly string[]).includes(head))
      throw new SllRenderError(`unknown type head ${head}`);
  }
  return heads.join(", ");
}

export function renderValue(value: SllValue): string {
  if (typeof value === "string") return wlString(value);
  if (typeof value === "number") return wlNumber(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (Array.isArray(value)) return `{${value.map(renderValue).join(", ")}}`;
  if ("unit" in value) {
    if (!Object.hasOwn(SLL_UNITS, value.unit)) throw new SllRenderError(`unknown unit ${String(value.unit)}`);
    return `${wlNumber(value.value)} ${value.unit}`;
  }
  if ("well" in value) return `{${wlString(value.well)}, ${wlString(value.label)}}`;
  if ("model" in value) return `Model[${renderHeads(value.model)}, ${wlString(value.name)}]`;
  if ("object" in value) return `Object[${renderHeads(value.object)}, ${wlString(value.name)}]`;
  throw new SllRenderError("unknown value shape");
}

/** Inputs (positional) then `Key -> value` options, in allow-list order. */
function renderArguments(step: SllStep): string[] {
  const spec = SLL_OPERATIONS[step.operation];
  const parts: string[] = [];
  for (const input of Object.keys(spec.inputs)) parts.push(renderValue(step[input]!));
  for (const key of Object.keys(spec.options)) {
    const value = step[key];
    if (value !== undefined) parts.push(`${key} -> ${renderValue(value)}`);
  }
  return parts;
}

export function renderSll(protocol: SllProtocolBody): string {
  const problems = checkSllProtocol(protocol);
  if (problems.length > 0) {
    const shown = problems
      .slice(0, MAX_PROBLEMS_SHOWN)
      .map((p) => (p.step === null ? p.message : `step ${p.step}: ${p.message}`));
    throw new SllRenderError(`not a valid SLL protocol: ${shown.join("; ")}`);
  }
  const lines = [`(* Petri protocol sll-json@1: ${wlString(protocol.name)} *)`];
  for (const note of protocol.notes) lines.push(wlComment(note));

  if (SLL_FUNCTIONS[protocol.function].kind === "call") {
    const step = protocol.steps[0]!;
    if (step.comment !== undefined) lines.push(wlComment(step.comment));
    lines.push(`${protocol.function}[`);
    lines.push(
      renderArguments(step)
        .map((part) => `  ${part}`)
        .join(",\n"),
    );
    lines.push("]");
    return lines.join("\n") + "\n";
  }

  lines.push(`${protocol.function}[{`);
  const body = protocol.steps.map((step) => {
    const call = `  ${step.operation}[${renderArguments(step).join(", ")}]`;
    return step.comment === undefined ? call : `  ${wlComment(step.comment)}\n${call}`;
  });
  lines.push(body.join(",\n"));
  lines.push("}]");
  return lines.join("\n") + "\n";
}
