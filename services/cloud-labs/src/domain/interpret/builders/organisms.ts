/**
 * Organism names as intakes write them. The cloud-lab MIC form sends one string per organism
 * ("Escherichia coli ATCC 25922"); a trailing culture-collection number is read as the strain so
 * the plan and the interpretation carry {name, strain} like the other forms. Anything else stays
 * the name, with no strain (nothing is guessed).
 */
import type { Organism } from "../../plan.js";

// Culture collections whose accession numbers commonly follow a species name.
const COLLECTION =
  /^(.+?)[\s,]+\(?((?:ATCC|DSMZ?|NCTC|NCIMB|CCUG|JCM|NBRC|CIP|LMG|NRRL)[\s-]?[A-Z]*-?\d[\w-]*)\)?$/i;
const STRAIN_WORD = /^(.+?)[\s,]+(?:strain|str\.)\s+(\S.*)$/i;

export function parseOrganism(text: string): Organism {
  const collection = COLLECTION.exec(text);
  if (collection) return { name: (collection[1] as string).trim(), strain: (collection[2] as string).trim() };
  const word = STRAIN_WORD.exec(text);
  if (word) return { name: (word[1] as string).trim(), strain: (word[2] as string).trim() };
  return { name: text, strain: null };
}

export function sameOrganism(a: Organism, b: Organism): boolean {
  return (
    a.name.toLowerCase() === b.name.toLowerCase() &&
    (a.strain ?? "").toLowerCase() === (b.strain ?? "").toLowerCase()
  );
}
