/**
 * Microorganisms the offline rules engine recognises: the ESKAPE pathogens, the CLSI
 * quality-control strains named in docs/assay-notes.md §4.3/§7.1, common laboratory
 * strains, yeasts and moulds (flagged `kind: "fungus"`, tested under CLSI M27/M38 rather than
 * M07), and a few BSL-3 agents so that requests naming them are flagged rather than drafted
 * at a lower level.
 *
 * Hand-curated from general microbiology knowledge; only well-established facts: names,
 * synonyms, Gram reaction, usual containment level. Where the level depends on the strain
 * (E. coli) or was not certain, `bsl` is left out and the engine assumes BSL-2.
 */
import type { Organism } from "./types.js";

export const ORGANISMS: readonly Organism[] = [
  // ESKAPE ---------------------------------------------------------------------------------------
  {
    name: "Enterococcus faecium",
    synonyms: ["E. faecium"],
    kind: "bacterium",
    gram: "positive",
    bsl: 2,
  },
  {
    name: "Staphylococcus aureus",
    synonyms: ["S. aureus", "Staph. aureus", "Staph aureus", "MRSA", "MSSA", "VRSA"],
    exactCase: ["MRSA", "MSSA", "VRSA"],
    kind: "bacterium",
    gram: "positive",
    bsl: 2,
    strains: [
      { designation: "ATCC 29213", atcc: "ATCC 29213", clsiQc: true },
      { designation: "ATCC 25923", atcc: "ATCC 25923", clsiQc: true },
      { designation: "ATCC 43300", atcc: "ATCC 43300", clsiQc: true },
      { designation: "USA300", synonyms: ["USA300 LAC"] },
      { designation: "Newman" },
      { designation: "RN4220" },
    ],
  },
  {
    name: "Klebsiella pneumoniae",
    synonyms: ["K. pneumoniae", "K.pneumoniae"],
    kind: "bacterium",
    gram: "negative",
    bsl: 2,
    strains: [
      { designation: "ATCC 700603", atcc: "ATCC 700603", clsiQc: true },
      { designation: "ATCC 13883", atcc: "ATCC 13883" },
    ],
  },
  {
    name: "Acinetobacter baumannii",
    synonyms: ["A. baumannii", "A. baumanii", "Acinetobacter baumanii"],
    kind: "bacterium",
    gram: "negative",
    bsl: 2,
    strains: [
      { designation: "ATCC 19606", atcc: "ATCC 19606" },
      { designation: "ATCC 17978", atcc: "ATCC 17978" },
    ],
  },
  {
    name: "Pseudomonas aeruginosa",
    synonyms: ["P. aeruginosa", "P.aeruginosa", "Ps. aeruginosa"],
    kind: "bacterium",
    gram: "negative",
    bsl: 2,
    strains: [
      { designation: "ATCC 27853", atcc: "ATCC 27853", clsiQc: true },
      { designation: "PAO1", synonyms: ["PA01"] },
      { designation: "PA14", synonyms: ["UCBPP-PA14"] },
    ],
  },
  {
    name: "Enterobacter cloacae",
    synonyms: ["E. cloacae"],
    kind: "bacterium",
    gram: "negative",
    bsl: 2,
  },
  // Other CLSI QC species and common pathogens ---------------------------------------------------
  {
    name: "Escherichia coli",
    synonyms: ["E. coli", "E.coli", "Escherichia coli"],
    kind: "bacterium",
    gram: "negative",
    strains: [
      { designation: "ATCC 25922", atcc: "ATCC 25922", clsiQc: true },
      { designation: "ATCC 35218", atcc: "ATCC 35218", clsiQc: true },
      { designation: "K-12 MG1655", synonyms: ["MG1655", "MG 1655"], bsl: 1 },
      { designation: "K-12", synonyms: ["K12"], bsl: 1 },
      { designation: "DH5alpha", synonyms: ["DH5α", "DH5a", "DH5-alpha"], bsl: 1 },
      { designation: "BL21(DE3)", synonyms: ["BL21 (DE3)", "BL21"], bsl: 1 },
      { designation: "BW25113", bsl: 1 },
      { designation: "TOP10", synonyms: ["One Shot TOP10"], bsl: 1 },
      { designation: "O157:H7", synonyms: ["O157"], bsl: 2 },
    ],
  },
  {
    name: "Enterococcus faecalis",
    synonyms: ["E. faecalis"],
    kind: "bacterium",
    gram: "positive",
    bsl: 2,
    strains: [
      { designation: "ATCC 29212", atcc: "ATCC 29212", clsiQc: true },
      { designation: "ATCC 51299", atcc: "ATCC 51299", clsiQc: true },
      { designation: "V583" },
    ],
  },
  {
    name: "Staphylococcus epidermidis",
    synonyms: ["S. epidermidis", "Staph. epidermidis", "Staph epidermidis"],
    kind: "bacterium",
    gram: "positive",
  },
  {
    name: "Streptococcus pneumoniae",
    synonyms: ["S. pneumoniae", "pneumococcus", "pneumococci"],
    kind: "bacterium",
    gram: "positive",
    bsl: 2,
    strains: [{ designation: "ATCC 49619", atcc: "ATCC 49619", clsiQc: true }],
  },
  {
    name: "Streptococcus pyogenes",
    synonyms: ["S. pyogenes", "group A Streptococcus"],
    kind: "bacterium",
    gram: "positive",
    bsl: 2,
  },
  {
    name: "Haemophilus influenzae",
    synonyms: ["H. influenzae", "Hemophilus influenzae"],
    kind: "bacterium",
    gram: "negative",
    bsl: 2,
    strains: [{ designation: "ATCC 49247", atcc: "ATCC 49247", clsiQc: true }],
  },
  {
    name: "Salmonella enterica serovar Typhimurium",
    synonyms: [
      "Salmonella Typhimurium",
      "S. Typhimurium",
      "Salmonella enterica Typhimurium",
      "S. enterica serovar Typhimurium",
    ],
    kind: "bacterium",
    gram: "negative",
    bsl: 2,
    strains: [
      { designation: "LT2" },
      { designation: "SL1344" },
      { designation: "ATCC 14028", atcc: "ATCC 14028" },
    ],
  },
  {
    name: "Shigella flexneri",
    synonyms: ["S. flexneri"],
    kind: "bacterium",
    gram: "negative",
    bsl: 2,
  },
  {
    name: "Listeria monocytogenes",
    synonyms: ["L. monocytogenes"],
    kind: "bacterium",
    gram: "positive",
    bsl: 2,
    strains: [{ designation: "EGD-e" }, { designation: "10403S" }],
  },
  {
    name: "Clostridioides difficile",
    synonyms: ["C. difficile", "Clostridium difficile", "C. diff"],
    kind: "bacterium",
    gram: "positive",
    bsl: 2,
    strains: [{ designation: "630" }],
  },
  {
    name: "Helicobacter pylori",
    synonyms: ["H. pylori"],
    kind: "bacterium",
    gram: "negative",
    bsl: 2,
  },
  {
    name: "Proteus mirabilis",
    synonyms: ["P. mirabilis"],
    kind: "bacterium",
    gram: "negative",
    bsl: 2,
  },
  // Laboratory workhorses ------------------------------------------------------------------------
  {
    name: "Bacillus subtilis",
    synonyms: ["B. subtilis", "B.subtilis"],
    kind: "bacterium",
    gram: "positive",
    bsl: 1,
    strains: [{ designation: "168" }, { designation: "ATCC 6633", atcc: "ATCC 6633" }],
  },
  {
    name: "Pseudomonas putida",
    synonyms: ["P. putida"],
    kind: "bacterium",
    gram: "negative",
    bsl: 1,
    strains: [{ designation: "KT2440" }],
  },
  {
    name: "Mycobacterium smegmatis",
    synonyms: ["M. smegmatis", "Mycolicibacterium smegmatis"],
    kind: "bacterium",
    bsl: 1,
    strains: [{ designation: "mc2 155", synonyms: ["mc2155", "mc(2)155"] }],
  },
  {
    name: "Mycobacterium abscessus",
    synonyms: ["M. abscessus", "Mycobacteroides abscessus"],
    kind: "bacterium",
    bsl: 2,
  },
  // BSL-3 agents: recognised so that a draft is flagged, never silently placed at BSL-2 ---------
  {
    name: "Mycobacterium tuberculosis",
    synonyms: ["M. tuberculosis", "Mtb"],
    exactCase: ["Mtb"],
    kind: "bacterium",
    bsl: 3,
    strains: [{ designation: "H37Rv" }],
  },
  {
    name: "Yersinia pestis",
    synonyms: ["Y. pestis"],
    kind: "bacterium",
    gram: "negative",
    bsl: 3,
  },
  {
    name: "Francisella tularensis",
    synonyms: ["F. tularensis"],
    kind: "bacterium",
    gram: "negative",
    bsl: 3,
  },
  {
    name: "Burkholderia pseudomallei",
    synonyms: ["B. pseudomallei"],
    kind: "bacterium",
    gram: "negative",
    bsl: 3,
  },
  {
    name: "Brucella abortus",
    synonyms: ["B. abortus"],
    kind: "bacterium",
    gram: "negative",
    bsl: 3,
  },
  // Fungi ----------------------------------------------------------------------------------------
  {
    name: "Candida albicans",
    synonyms: ["C. albicans", "C.albicans"],
    kind: "fungus",
    bsl: 2,
    strains: [{ designation: "ATCC 90028", atcc: "ATCC 90028" }, { designation: "SC5314" }],
  },
  {
    name: "Candida parapsilosis",
    synonyms: ["C. parapsilosis"],
    kind: "fungus",
    strains: [{ designation: "ATCC 22019", atcc: "ATCC 22019", clsiQc: true }],
  },
  {
    name: "Pichia kudriavzevii",
    synonyms: ["Candida krusei", "C. krusei", "P. kudriavzevii"],
    kind: "fungus",
    strains: [{ designation: "ATCC 6258", atcc: "ATCC 6258", clsiQc: true }],
  },
  {
    name: "Candida auris",
    synonyms: ["C. auris", "Candidozyma auris"],
    kind: "fungus",
    bsl: 2,
  },
  {
    name: "Nakaseomyces glabratus",
    synonyms: ["Candida glabrata", "C. glabrata"],
    kind: "fungus",
  },
  {
    name: "Cryptococcus neoformans",
    synonyms: ["C. neoformans"],
    kind: "fungus",
    bsl: 2,
    strains: [{ designation: "H99" }],
  },
  {
    name: "Aspergillus fumigatus",
    synonyms: ["A. fumigatus"],
    kind: "fungus",
    bsl: 2,
    strains: [{ designation: "Af293" }],
  },
  {
    name: "Aspergillus niger",
    synonyms: ["A. niger"],
    kind: "fungus",
    bsl: 1,
  },
  {
    name: "Saccharomyces cerevisiae",
    synonyms: ["S. cerevisiae", "baker's yeast", "budding yeast"],
    kind: "fungus",
    bsl: 1,
    strains: [{ designation: "S288C", synonyms: ["S288c"] }, { designation: "BY4741" }],
  },
];

/**
 * Strain designations that identify their species on their own (so "PAO1" alone means
 * P. aeruginosa). Others ("168", "630", "Newman") count only right after their species.
 */
export const DISTINCTIVE_STRAINS: ReadonlySet<string> = new Set([
  "K-12 MG1655",
  "DH5alpha",
  "BL21(DE3)",
  "BW25113",
  "TOP10",
  "O157:H7",
  "PAO1",
  "PA14",
  "USA300",
  "RN4220",
  "SC5314",
  "BY4741",
  "S288C",
  "KT2440",
  "H37Rv",
  "mc2 155",
  "SL1344",
  "Af293",
]);
