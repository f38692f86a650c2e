/**
 * Drafting per experiment type: from what the query names and states, a title, a falsifiable
 * hypothesis and its null, the acceptance criteria and the type's intake section.
 *
 * Every hypothesis says what is measured, the direction and a threshold: the query's own
 * threshold when it states one ("IC50 below 1 µM", "at least 3-fold"), otherwise the standard
 * criterion of the assay (a MIC within the tested range, qPCR >= 2-fold, a zone beyond the
 * disk, a p < 0.05 difference for growth rates). Defaults for missing inputs are the standard
 * ones from docs/assay-notes.md §7 (CLSI M07/M02, dose-response design, MIQE); every
 * value the requester must check is listed in `notes`.
 */

import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import { capitalise, prose } from "../format.js";
import type { DraftInput, TypeDraft } from "./shared.js";
import { draftMic, draftZone } from "./antimicrobial.js";
import { draftEnzyme, draftViability } from "./dose-response.js";
import { draftQpcr, draftSanger } from "./molecular.js";
import { draftGrowth } from "./growth.js";
import { draftCustom } from "./custom.js";

export type { DraftInput, TypeDraft } from "./shared.js";

function draftOf(type: ExperimentTypeName, input: DraftInput, query: string): TypeDraft {
  switch (type) {
    case "MIC_MBC_ASSAY":
      return draftMic(input);
    case "ZONE_OF_INHIBITION":
      return draftZone(input);
    case "CELL_VIABILITY_IC50":
      return draftViability(input);
    case "ENZYME_INHIBITION_IC50":
      return draftEnzyme(input);
    case "QPCR_EXPRESSION":
      return draftQpcr(input);
    case "SANGER_PLASMID_VERIFICATION":
      return draftSanger(input);
    case "MICROBIAL_GROWTH_MATRIX":
      return draftGrowth(input);
    default:
      return draftCustom(input, query);
  }
}

/** Capitalises a sentence that starts with a lower-case word ("colistin …"), not "pET-28a …". */
function sentence(text: string): string {
  return /^[a-z]+(?![A-Za-z0-9])/.test(text) ? capitalise(text) : text;
}

const ONE_ORGANISM: readonly ExperimentTypeName[] = [
  "MIC_MBC_ASSAY",
  "ZONE_OF_INHIBITION",
  "MICROBIAL_GROWTH_MATRIX",
];
const ONE_CELL_LINE: readonly ExperimentTypeName[] = ["CELL_VIABILITY_IC50", "QPCR_EXPRESSION"];

export function draftForType(type: ExperimentTypeName, input: DraftInput, query: string): TypeDraft {
  const draft = draftOf(type, input, query);
  const notes = [...draft.notes];
  const { organisms, cellLines } = input.extraction;
  if (ONE_ORGANISM.includes(type) && organisms.length > 1) {
    notes.push(
      `The draft covers ${organisms[0]?.name}; ${prose(organisms.slice(1).map((o) => o.name))} need their own request${type === "MIC_MBC_ASSAY" ? " (or the multi-organism mic_mbc_assay form)" : ""}.`,
    );
  }
  if (ONE_CELL_LINE.includes(type) && cellLines.length > 1) {
    notes.push(
      `The draft covers ${cellLines[0]?.name}; ${prose(cellLines.slice(1).map((c) => c.name))} need their own request.`,
    );
  }
  return {
    ...draft,
    title: sentence(draft.title),
    statement: sentence(draft.statement),
    nullHypothesis: sentence(draft.nullHypothesis),
    notes,
  };
}
