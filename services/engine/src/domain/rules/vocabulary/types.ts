/**
 * Shapes of the hand-curated vocabulary the offline rules engine recognises.
 *
 * Matching rules (see ../match.ts): a name or synonym matches on word boundaries, with spaces,
 * hyphens, dots and slashes between its parts optional ("MCF-7" = "MCF7" = "MCF 7"). Terms of
 * three characters or fewer (after dropping punctuation) and the terms listed in `exactCase`
 * match only in the case written here; every other term matches in any case.
 */

export type BiosafetyLevel = 1 | 2 | 3 | 4;

export interface VocabularyTerm {
  /** The display name the engine reports. */
  name: string;
  synonyms: readonly string[];
  /** Names or synonyms that only match in the case written (abbreviations, lab shorthand). */
  exactCase?: readonly string[];
}

export interface OrganismStrain {
  designation: string;
  synonyms?: readonly string[];
  /** Culture-collection id, e.g. "ATCC 25922". */
  atcc?: string;
  /** Set only where the strain's level is well established (e.g. E. coli K-12 derivatives). */
  bsl?: BiosafetyLevel;
  /** A CLSI quality-control strain (CLSI M07/M02/M100, M27 for yeasts). */
  clsiQc?: boolean;
}

export interface Organism extends VocabularyTerm {
  kind: "bacterium" | "fungus";
  /** Left out for organisms that are not Gram-stained in practice (fungi, mycobacteria). */
  gram?: "positive" | "negative";
  /** The usual containment level for the species; absent when it depends on the strain. */
  bsl?: BiosafetyLevel;
  strains?: readonly OrganismStrain[];
}

export interface Antimicrobial extends VocabularyTerm {
  /** Drug class, e.g. "fluoroquinolone". */
  class: string;
  /** What it acts against in the usual sense of the class. */
  spectrum: "antibacterial" | "antifungal" | "antimycobacterial" | "antiseptic" | "selection";
}

export interface CellLine extends VocabularyTerm {
  species: "human" | "mouse" | "rat" | "African green monkey" | "Chinese hamster" | "dog" | "fall armyworm";
  tissue?: string;
  /** Primary cells rather than an immortal line. */
  primary?: boolean;
}

export interface Gene extends VocabularyTerm {
  /** qPCR normalisers vs genes studied as targets. */
  role: "target" | "reference";
  /** "bacterial" genes are named in lower-case-first bacterial nomenclature. */
  scope: "mammalian" | "bacterial";
}

export interface Enzyme extends VocabularyTerm {
  family?: string;
  /** A widely used reference inhibitor, suggested as the positive control. */
  referenceInhibitor?: string;
}

export interface ReferenceCompound extends VocabularyTerm {
  /** What the compound is usually used as, e.g. "cytotoxic", "kinase inhibitor". */
  use: string;
}

export interface Medium extends VocabularyTerm {
  /** Which organisms it is usually used for. */
  for: "bacteria" | "fungi" | "microbes" | "mammalian cells";
}
