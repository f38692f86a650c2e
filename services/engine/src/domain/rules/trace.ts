/** The reasoning trace of the rules engine: one step per rule applied, in order. */
import type { ReasoningStep } from "../generation.js";
import type { Classification } from "./classify.js";
import type { Extraction } from "./extract.js";
import { clampText, num, prose, quantity, unique } from "./format.js";

export class Trace {
  readonly steps: ReasoningStep[] = [];

  add(action: string, summary: string): void {
    this.steps.push({
      step: this.steps.length + 1,
      action: `rule:${action}`,
      summary: clampText(summary, 1000),
    });
  }
}

export function abbreviatedList(items: readonly string[], max = 8): string {
  const shown = items.slice(0, max);
  return items.length > max ? `${shown.join("; ")}; and ${items.length - max} more` : shown.join("; ");
}

export function recordEntities(trace: Trace, extraction: Extraction): void {
  if (extraction.corrections.length > 0) {
    trace.add(
      "typo_corrected",
      `Read as vocabulary terms despite a spelling difference: ${abbreviatedList(extraction.corrections.map((c) => `"${c.found}" as ${c.readAs}`))}.`,
    );
  }
  if (extraction.organisms.length > 0) {
    trace.add(
      "organism_recognised",
      `Organisms: ${abbreviatedList(
        extraction.organisms.map((o) => {
          const facts = [
            o.strain ? `strain ${o.strain}${o.strainInfo?.clsiQc ? " (CLSI QC strain)" : ""}` : undefined,
            o.entry?.kind === "fungus" ? "fungus" : o.entry?.gram ? `Gram-${o.entry.gram}` : undefined,
            o.entry ? undefined : "not in the vocabulary (genus recognised)",
          ].filter(Boolean);
          return facts.length > 0 ? `${o.name} (${facts.join(", ")})` : o.name;
        }),
      )}.`,
    );
  }
  if (extraction.compounds.length > 0) {
    trace.add(
      "compound_recognised",
      `Compounds: ${abbreviatedList(
        extraction.compounds.map((c) => {
          const kind =
            c.antimicrobial?.class ??
            c.reference?.use ??
            (c.source === "extract" ? "extract" : "name not in the vocabulary (code or introduced name)");
          return `${c.name} (${kind}${c.control ? "; named as a control or comparator" : ""})`;
        }),
      )}.`,
    );
  }
  if (extraction.cellLines.length > 0) {
    trace.add(
      "cell_line_recognised",
      `Cell lines: ${abbreviatedList(extraction.cellLines.map((c) => `${c.name} (${[c.entry?.species, c.entry?.tissue].filter(Boolean).join(", ")})`))}.`,
    );
  }
  if (extraction.genes.length > 0) {
    trace.add(
      "gene_recognised",
      `Genes: ${abbreviatedList(extraction.genes.map((g) => `${g.name}${g.entry ? (g.entry.role === "reference" ? " (reference gene)" : "") : " (symbol next to an expression word)"}`))}.`,
    );
  }
  if (extraction.enzymes.length > 0) {
    trace.add(
      "enzyme_recognised",
      `Enzymes or targets: ${abbreviatedList(extraction.enzymes.map((e) => `${e.name}${e.entry?.family ? ` (${e.entry.family})` : e.entry ? "" : " (named by its enzyme family noun)"}`))}.`,
    );
  }
  if (extraction.plasmids.length > 0) {
    trace.add("plasmid_recognised", `Plasmids: ${abbreviatedList(extraction.plasmids.map((p) => p.name))}.`);
  }
  if (extraction.media.length > 0) {
    trace.add("medium_recognised", `Media: ${abbreviatedList(extraction.media.map((m) => m.name))}.`);
  }
  if (extraction.concentrations.length > 0) {
    trace.add(
      "concentration_parsed",
      `Concentrations: ${abbreviatedList(unique(extraction.concentrations.map((q) => quantity(q.value, q.unit))), 12)}.`,
    );
  }
  if (extraction.durations.length > 0) {
    trace.add(
      "duration_parsed",
      `Durations: ${abbreviatedList(unique(extraction.durations.map((q) => quantity(q.value, q.unit))), 12)}.`,
    );
  }
  if (extraction.temperatures.length > 0) {
    trace.add(
      "temperature_parsed",
      `Temperatures: ${abbreviatedList(unique(extraction.temperatures.map((q) => `${num(q.value)} ${q.unit}`)), 12)}.`,
    );
  }
}

export function classificationSummary(c: Classification): string {
  const cues = c.cues
    .filter((cue) => cue.type === c.type)
    .map((cue) => `${cue.label}${cue.where === "context" ? " (context)" : ""}`);
  const evidence = c.evidence.filter((e) => e.type === c.type).map((e) => e.label);
  const ranked = (Object.entries(c.scores) as [string, number][])
    .filter(([, score]) => score > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([type, score]) => `${type} ${num(score)}`);
  const scores = ranked.length > 0 ? ` Scores: ${ranked.join(", ")}.` : "";
  if (c.decidedBy === "caller")
    return `The caller chose ${c.type}; cue scoring was not used to decide.${scores}`;
  if (c.decidedBy === "fallback") {
    return `No experiment type reached the threshold with a clear lead${c.runnerUp ? ` (closest: ${c.runnerUp})` : ""}, so the request is CUSTOM.${scores}`;
  }
  const why = [...cues, ...evidence];
  return `Classified as ${c.type} from ${why.length > 0 ? prose(why) : "its cues"}.${scores}`;
}
