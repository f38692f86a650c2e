/**
 * Organisms named in a query: vocabulary species and strains, culture-collection ids (known
 * strains, or the strain of the organism named just before), and binomials of known genera.
 */
import type { OrganismMention } from "./extract.js";
import type { VocabularyMatch } from "./match.js";
import type { CollectionId } from "./patterns.js";
import { overlaps } from "./spans.js";
import { ORGANISMS, type Organism, type OrganismStrain } from "./vocabulary/index.js";

const GENERA: Record<string, Organism["kind"]> = {
  Bacillus: "bacterium",
  Vibrio: "bacterium",
  Serratia: "bacterium",
  Citrobacter: "bacterium",
  Streptomyces: "bacterium",
  Lactobacillus: "bacterium",
  Lactococcus: "bacterium",
  Corynebacterium: "bacterium",
  Mycobacterium: "bacterium",
  Staphylococcus: "bacterium",
  Streptococcus: "bacterium",
  Enterococcus: "bacterium",
  Klebsiella: "bacterium",
  Pseudomonas: "bacterium",
  Acinetobacter: "bacterium",
  Enterobacter: "bacterium",
  Salmonella: "bacterium",
  Shigella: "bacterium",
  Listeria: "bacterium",
  Clostridium: "bacterium",
  Clostridioides: "bacterium",
  Helicobacter: "bacterium",
  Campylobacter: "bacterium",
  Proteus: "bacterium",
  Burkholderia: "bacterium",
  Neisseria: "bacterium",
  Bordetella: "bacterium",
  Legionella: "bacterium",
  Haemophilus: "bacterium",
  Moraxella: "bacterium",
  Stenotrophomonas: "bacterium",
  Escherichia: "bacterium",
  Caulobacter: "bacterium",
  Yersinia: "bacterium",
  Bacteroides: "bacterium",
  Cutibacterium: "bacterium",
  Micrococcus: "bacterium",
  Bifidobacterium: "bacterium",
  Agrobacterium: "bacterium",
  Xanthomonas: "bacterium",
  Candida: "fungus",
  Aspergillus: "fungus",
  Cryptococcus: "fungus",
  Saccharomyces: "fungus",
  Schizosaccharomyces: "fungus",
  Trichophyton: "fungus",
  Fusarium: "fungus",
  Penicillium: "fungus",
};
const NOT_EPITHETS = new Set([
  "species",
  "strain",
  "strains",
  "isolate",
  "isolates",
  "cells",
  "culture",
  "cultures",
  "growth",
  "biofilm",
  "biofilms",
  "infection",
  "infections",
  "were",
  "with",
  "from",
  "that",
  "this",
  "when",
  "grown",
  "cultured",
]);
const BINOMIAL = new RegExp(`(?<![A-Za-z])(${Object.keys(GENERA).join("|")})\\s([a-z]{4,})(?![A-Za-z])`, "g");

function strainOf(entry: Organism, atcc: string): OrganismStrain | undefined {
  return entry.strains?.find((s) => s.atcc === atcc);
}

export function organismsFrom(
  text: string,
  matches: readonly VocabularyMatch[],
  ids: readonly CollectionId[],
): OrganismMention[] {
  const mentions: OrganismMention[] = [];
  const bySpecies = (entry: Organism) => mentions.find((m) => m.entry === entry);
  const add = (mention: OrganismMention) => {
    const existing = mention.entry ? bySpecies(mention.entry) : mentions.find((m) => m.name === mention.name);
    if (!existing) mentions.push(mention);
    else if (!existing.strain && mention.strain)
      Object.assign(existing, { ...mention, start: existing.start });
  };
  for (const match of matches) {
    if (match.category === "organism")
      add({ name: match.entry.name, entry: match.entry, start: match.start });
    if (match.category === "strain") {
      add({
        name: match.entry.organism.name,
        entry: match.entry.organism,
        strain: match.entry.strain.designation,
        strainInfo: match.entry.strain,
        start: match.start,
      });
    }
  }
  for (const id of ids) {
    const known = ORGANISMS.find((o) => strainOf(o, id.id));
    if (known) {
      add({
        name: known.name,
        entry: known,
        strain: id.id,
        strainInfo: strainOf(known, id.id),
        collection: id.collection,
        start: id.start,
      });
      continue;
    }
    // An unknown id belongs to the organism named just before it ("K. pneumoniae ATCC BAA-1705").
    const before = matches
      .filter((m) => m.category === "organism" && m.end <= id.start && id.start - m.end <= 40)
      .pop();
    if (before && before.category === "organism") {
      add({
        name: before.entry.name,
        entry: before.entry,
        strain: id.id,
        collection: id.collection,
        start: before.start,
      });
    }
  }
  BINOMIAL.lastIndex = 0;
  for (let m = BINOMIAL.exec(text); m !== null; m = BINOMIAL.exec(text)) {
    const epithet = m[2] as string;
    const span = { start: m.index, end: m.index + m[0].length };
    if (
      NOT_EPITHETS.has(epithet) ||
      overlaps(
        span,
        matches.filter((x) => x.category === "organism"),
      )
    )
      continue;
    add({ name: `${m[1]} ${epithet}`, start: m.index });
  }
  return mentions.sort((a, b) => a.start - b.start);
}
