/**
 * A corpus of realistic engine queries, phrased the way scientists and AI agents write them
 * (terse notes, long requests, abbreviations such as "S. aureus", "E.coli", "ug/ml", "IC-50",
 * and a few typos), with the experiment type the offline rules engine must choose and the
 * entities it must recognise (`expect` lists must be contained in the engine's entities).
 *
 * Used by the rules engine's tests and, through "@petri/engine/testing", by the end-to-end
 * suite, which sends every query through the engine and checks that the intake draft passes
 * POST /validate. Compound codes such as PX-17 are made-up test articles.
 */
import type { ExperimentType } from "@petri/contracts";

export interface CorpusEntry {
  query: string;
  expected_type: ExperimentType;
  context?: string;
  expect?: {
    organisms?: string[];
    compounds?: string[];
    cell_lines?: string[];
    genes?: string[];
    enzymes?: string[];
    plasmids?: string[];
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const item of Object.values(value as Record<string, unknown>)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

const MIC: CorpusEntry[] = [
  {
    query: "Does berberine inhibit Staphylococcus aureus ATCC 29213 growth at 64 ug/mL?",
    expected_type: "MIC_MBC_ASSAY",
    expect: { organisms: ["Staphylococcus aureus"] },
  },
  {
    query: "Can thymol kill Pseudomonas aeruginosa PAO1 at 250 µg/mL?",
    expected_type: "MIC_MBC_ASSAY",
    expect: { organisms: ["Pseudomonas aeruginosa"] },
  },
  {
    query:
      "What is the MIC of compound PX-17 against S. aureus ATCC 29213? We expect it to be ≤ 4 µg/mL by broth microdilution.",
    expected_type: "MIC_MBC_ASSAY",
    expect: { organisms: ["Staphylococcus aureus"], compounds: ["PX-17"] },
  },
  {
    query:
      "minimum inhibitory concentration of ciprofloxacin vs E.coli ATCC 25922, 0.0078-4 ug/ml range, CAMHB, 35C 18h",
    expected_type: "MIC_MBC_ASSAY",
    expect: { organisms: ["Escherichia coli"], compounds: ["ciprofloxacin"] },
  },
  {
    query:
      "Agent task: determine MIC and MBC of the antimicrobial peptide LL-37 against Pseudomonas aeruginosa PAO1 in cation-adjusted Mueller-Hinton broth. Include colistin as reference antibiotic. Working hypothesis: LL-37 is bactericidal (MBC/MIC <= 4).",
    expected_type: "MIC_MBC_ASSAY",
    expect: { organisms: ["Pseudomonas aeruginosa"], compounds: ["LL-37", "colistin"] },
  },
  {
    query:
      "Can you test whether XYZ-123 has antifungal activity vs Candida albicans SC5314? Need MIC values, fluconazole as control.",
    expected_type: "MIC_MBC_ASSAY",
    expect: { organisms: ["Candida albicans"], compounds: ["XYZ-123", "fluconazole"] },
  },
  {
    query:
      "susceptibility testing - MICs of meropenem and the new BLI compound ABX-7 against K. pneumoniae ATCC 700603 and A. baumanii ATCC 19606",
    expected_type: "MIC_MBC_ASSAY",
    expect: {
      organisms: ["Klebsiella pneumoniae", "Acinetobacter baumannii"],
      compounds: ["meropenem", "ABX-7"],
    },
  },
  {
    query: "MIC vancomycin MRSA USA300",
    expected_type: "MIC_MBC_ASSAY",
    expect: { organisms: ["Staphylococcus aureus"], compounds: ["vancomycin"] },
  },
  {
    query:
      "Determine the minimal inhibitory concentration of thymol against Enterococcus faecalis ATCC 29212 and E. faecium, two-fold dilutions from 512 down to 1 µg/mL.",
    expected_type: "MIC_MBC_ASSAY",
    expect: { organisms: ["Enterococcus faecalis", "Enterococcus faecium"], compounds: ["thymol"] },
  },
];

const ZONE: CorpusEntry[] = [
  {
    query:
      "Kirby-Bauer disk diffusion: does a 30 µg disk of PX-17 give an inhibition zone of at least 15 mm on S. aureus ATCC 25923?",
    expected_type: "ZONE_OF_INHIBITION",
    expect: { organisms: ["Staphylococcus aureus"], compounds: ["PX-17"] },
  },
  {
    query: "zone of inhibition for tea tree oil against E. coli, 6 mm paper discs loaded with 10 uL neat oil",
    expected_type: "ZONE_OF_INHIBITION",
    expect: { organisms: ["Escherichia coli"], compounds: ["tea tree oil"] },
  },
  {
    query:
      "Agar well diffusion assay of Curcuma longa extract vs B. subtilis and P. aeruginosa; we'd like halo diameters in mm.",
    expected_type: "ZONE_OF_INHIBITION",
    expect: {
      organisms: ["Bacillus subtilis", "Pseudomonas aeruginosa"],
      compounds: ["Curcuma longa extract"],
    },
  },
  {
    query:
      "disc diffusion test of compound 7b (20 ug/disk) on MRSA, with a gentamicin 10 µg disc as positive control",
    expected_type: "ZONE_OF_INHIBITION",
    expect: { organisms: ["Staphylococcus aureus"], compounds: ["compound 7b", "gentamicin"] },
  },
  {
    query:
      "Need a zone-of-inhibition readout for the silver nanoparticle coating AgNP-3 against Pseudomonas aeruginosa ATCC 27853.",
    expected_type: "ZONE_OF_INHIBITION",
    expect: { organisms: ["Pseudomonas aeruginosa"], compounds: ["AgNP-3"] },
  },
  {
    query: "Kirby Bauer w/ amoxicillin-clavulanate vs E coli clinical isolate EC-12, report zone diameter",
    expected_type: "ZONE_OF_INHIBITION",
    expect: { organisms: ["Escherichia coli"], compounds: ["amoxicillin-clavulanate"] },
  },
  {
    query:
      "Test if our new antifungal ZF-9 produces clear zones on Candida auris lawns (disk loading 50 µg).",
    expected_type: "ZONE_OF_INHIBITION",
    expect: { organisms: ["Candida auris"], compounds: ["ZF-9"] },
  },
];

const VIABILITY: CorpusEntry[] = [
  {
    query: "Does metformin reduce HepG2 viability at 10 mM after 48 h?",
    expected_type: "CELL_VIABILITY_IC50",
    expect: { cell_lines: ["HepG2"] },
  },
  {
    query: "IC50 of doxorubicine in MCF-7 cells after 72 h, CellTiter-Glo readout; we expect IC50 < 1 µM.",
    expected_type: "CELL_VIABILITY_IC50",
    expect: { cell_lines: ["MCF-7"], compounds: ["doxorubicin"] },
  },
  {
    query:
      "Is compound PX-17 cytotoxic to HepG2 cells? Looking for an IC50 below 10 uM with MTT after 48h; staurosporine as positive control.",
    expected_type: "CELL_VIABILITY_IC50",
    expect: { cell_lines: ["HepG2"], compounds: ["PX-17", "staurosporine"] },
  },
  {
    query: "viability of A549 & H1299 treated w/ cisplatin 0.1-100 µM for 72 hrs (resazurin)",
    expected_type: "CELL_VIABILITY_IC50",
    expect: { cell_lines: ["A549", "NCI-H1299"], compounds: ["cisplatin"] },
  },
  {
    query:
      "Hypothesis generation request: evaluate the antiproliferative activity (GI50) of the BRD4 inhibitor JQ1 on MV4-11 leukemia cells. Sub-micromolar potency is expected.",
    expected_type: "CELL_VIABILITY_IC50",
    expect: { cell_lines: ["MV4-11"], compounds: ["JQ1"] },
  },
  {
    query: "cytotoxicity of our lead compound KT-221 on HaCaT keratinocytes, 24 h MTS assay",
    expected_type: "CELL_VIABILITY_IC50",
    expect: { cell_lines: ["HaCaT"], compounds: ["KT-221"] },
  },
  {
    query: "HEK293T viability dose response to staurosporin - want IC-50 and Z' factor, 384-well format",
    expected_type: "CELL_VIABILITY_IC50",
    expect: { cell_lines: ["HEK293T"], compounds: ["staurosporine"] },
  },
  {
    query: "Does metformin reduce viability of HCT116 colon cancer cells? 72h CTG, top dose 10 mM.",
    expected_type: "CELL_VIABILITY_IC50",
    context: "Prior screens in our lab used 10 mM metformin as the highest dose.",
    expect: { cell_lines: ["HCT116"], compounds: ["metformin"] },
  },
];

const ENZYME: CorpusEntry[] = [
  {
    query:
      "Does PX-17 inhibit acetylcholinesterase with an IC50 < 100 nM? Ellman assay, recombinant human AChE.",
    expected_type: "ENZYME_INHIBITION_IC50",
    expect: { enzymes: ["acetylcholinesterase"], compounds: ["PX-17"] },
  },
  {
    query:
      "IC50 determination of novel inhibitor KX-01 against recombinant EGFR kinase (ADP-Glo), biochemical only, no cells",
    expected_type: "ENZYME_INHIBITION_IC50",
    expect: { enzymes: ["EGFR kinase"], compounds: ["KX-01"] },
  },
  {
    query:
      "Screen for beta-lactamase (TEM-1) inhibition by the boronic acid compound BA-12 using nitrocefin; Ki?",
    expected_type: "ENZYME_INHIBITION_IC50",
    expect: { enzymes: ["TEM-1 beta-lactamase"], compounds: ["BA-12"] },
  },
  {
    query: "SARS-CoV-2 Mpro FRET assay - compare GC376 vs our hit ZT-44, IC50 in nM",
    expected_type: "ENZYME_INHIBITION_IC50",
    expect: { enzymes: ["SARS-CoV-2 main protease"], compounds: ["GC376", "ZT-44"] },
  },
  {
    query:
      "tyrosinase inhibition by kojic acid, mushroom tyrosinase with L-DOPA substrate, colorimetric at 475 nm",
    expected_type: "ENZYME_INHIBITION_IC50",
    expect: { enzymes: ["tyrosinase"], compounds: ["kojic acid"] },
  },
  {
    query:
      "carbonic anhydrase II inhibitors: measure the IC50 of the sulfonamide SLC-0111 at 25 °C, acetazolamide as reference",
    expected_type: "ENZYME_INHIBITION_IC50",
    expect: { enzymes: ["carbonic anhydrase II"], compounds: ["SLC-0111", "acetazolamide"] },
  },
  {
    query:
      "Does the natural product berberine inhibit human AChE in vitro (Ellman's method)? We expect an IC50 in the low micromolar range.",
    expected_type: "ENZYME_INHIBITION_IC50",
    expect: { enzymes: ["acetylcholinesterase"], compounds: ["berberine"] },
  },
];

const QPCR: CorpusEntry[] = [
  {
    query: "Test whether curcumin at 20 µM lowers IL-6 mRNA in LPS-stimulated THP-1 macrophages",
    expected_type: "QPCR_EXPRESSION",
    expect: { genes: ["IL6"], cell_lines: ["THP-1"] },
  },
  {
    query:
      "Does PX-17 (10 µM, 24 h) upregulate IL6 and TNF mRNA at least 2-fold in THP-1 macrophages? Normalize to GAPDH and ACTB.",
    expected_type: "QPCR_EXPRESSION",
    expect: { genes: ["IL6", "TNF", "GAPDH", "ACTB"], cell_lines: ["THP-1"], compounds: ["PX-17"] },
  },
  {
    query:
      "RT-qPCR: expression of HMOX1 and NQO1 after sulforaphane treatment in HepG2, expecting >=3-fold induction",
    expected_type: "QPCR_EXPRESSION",
    expect: { genes: ["HMOX1", "NQO1"], cell_lines: ["HepG2"], compounds: ["sulforaphane"] },
  },
  {
    query:
      "knockdown efficiency check: siRNA against STAT3 in HeLa, measure STAT3 transcript by qPCR 48 h post-transfection, TaqMan probes",
    expected_type: "QPCR_EXPRESSION",
    expect: { genes: ["STAT3"], cell_lines: ["HeLa"] },
  },
  {
    query:
      "E. coli MG1655: does 0.5 mM H2O2 induce katG and ahpC transcripts? qPCR with rpoD/gyrB as reference genes.",
    expected_type: "QPCR_EXPRESSION",
    expect: {
      genes: ["katG", "ahpC", "rpoD", "gyrB"],
      organisms: ["Escherichia coli"],
      compounds: ["hydrogen peroxide"],
    },
  },
  {
    query:
      "Agent query: quantify fold change of VEGFA and HIF1A under hypoxia (1% O2) vs normoxia in HUVEC, ddCt method",
    expected_type: "QPCR_EXPRESSION",
    expect: { genes: ["VEGFA", "HIF1A"], cell_lines: ["HUVEC"] },
  },
  {
    query: "qPCR CDKN1A + BAX after nutlin-3 in U2OS",
    expected_type: "QPCR_EXPRESSION",
    expect: { genes: ["CDKN1A", "BAX"], cell_lines: ["U2OS"], compounds: ["nutlin-3"] },
  },
  {
    query:
      "We think LPS stimulation of RAW 264.7 cells will increase Nos2 and Il1b expression >5 fold by 6 h (SYBR green, normalised to Actb/Gapdh).",
    expected_type: "QPCR_EXPRESSION",
    expect: {
      genes: ["NOS2", "IL1B", "ACTB", "GAPDH"],
      cell_lines: ["RAW 264.7"],
      compounds: ["lipopolysaccharide"],
    },
  },
];

const SANGER: CorpusEntry[] = [
  {
    query: "Is the EGFR L858R mutation present in my pcDNA3.1-EGFR clone?",
    expected_type: "SANGER_PLASMID_VERIFICATION",
    expect: { plasmids: ["pcDNA3.1-EGFR"] },
  },
  {
    query: "Please Sanger-sequence our pUC19-GFP miniprep with M13F/M13R to confirm the 720 bp GFP insert.",
    expected_type: "SANGER_PLASMID_VERIFICATION",
    expect: { plasmids: ["pUC19-GFP"] },
  },
  {
    query:
      "sequence verify pET-28a(+)-KRAS G12C construct after site-directed mutagenesis; check the codon 12 mutation",
    expected_type: "SANGER_PLASMID_VERIFICATION",
    expect: { plasmids: ["pET-28a(+)"] },
  },
  {
    query: "Verify the insert orientation and sequence of pcDNA3.1-hACE2 clone #4 (CMV-F and BGH-R primers).",
    expected_type: "SANGER_PLASMID_VERIFICATION",
    expect: { plasmids: ["pcDNA3.1-hACE2"] },
  },
  {
    query:
      "AI agent: confirm that plasmid pLKO.1-shTP53 carries the correct shRNA sequence; Sanger read from the U6 promoter.",
    expected_type: "SANGER_PLASMID_VERIFICATION",
    expect: { plasmids: ["pLKO.1-shTP53"] },
  },
  {
    query: "Sanger of a PCR product (1.5 kb amplicon of the mecA gene) from a clinical MRSA isolate",
    expected_type: "SANGER_PLASMID_VERIFICATION",
    expect: { genes: ["mecA"], organisms: ["Staphylococcus aureus"] },
  },
  {
    query: "Sanger check of my Gibson assembly: pX330 with an sgRNA insert, read across the BbsI site",
    expected_type: "SANGER_PLASMID_VERIFICATION",
    expect: { plasmids: ["pX330"] },
  },
  {
    query:
      "Need sequencing confirmation of pET21a-His-MBP-TEV clones (3 colonies) with T7 promoter and T7 terminator primers; expected insert 2.1 kb.",
    expected_type: "SANGER_PLASMID_VERIFICATION",
    expect: { plasmids: ["pET21a-His-MBP-TEV"] },
  },
];

const GROWTH: CorpusEntry[] = [
  {
    query:
      "Growth curves of E. coli MG1655 in M9 with 0.2% glucose vs 0.2% glycerol at 37 °C, OD600 every 15 min for 16 h",
    expected_type: "MICROBIAL_GROWTH_MATRIX",
    expect: { organisms: ["Escherichia coli"] },
  },
  {
    query: "Compare doubling time of S. cerevisiae BY4741 at 25, 30 and 37 °C in YPD.",
    expected_type: "MICROBIAL_GROWTH_MATRIX",
    expect: { organisms: ["Saccharomyces cerevisiae"] },
  },
  {
    query: "How does NaCl (0, 0.5, 1 M) affect the lag phase of B. subtilis 168 in LB?",
    expected_type: "MICROBIAL_GROWTH_MATRIX",
    expect: { organisms: ["Bacillus subtilis"] },
  },
  {
    query:
      "growth kinetics of P. aeruginosa PA14 under aerobic vs anaerobic conditions with nitrate, OD600 + CFU",
    expected_type: "MICROBIAL_GROWTH_MATRIX",
    expect: { organisms: ["Pseudomonas aeruginosa"] },
  },
  {
    query:
      "pH 5.5, 6.5 and 7.5 growth rate matrix for Lactobacillus plantarum in MRS broth at 30 °C over 48 h",
    expected_type: "MICROBIAL_GROWTH_MATRIX",
    expect: { organisms: ["Lactobacillus plantarum"] },
  },
  {
    query: "Staph aureus Newman growth in TSB ± 5% human serum at 37C, plate reader reads for 24 h",
    expected_type: "MICROBIAL_GROWTH_MATRIX",
    expect: { organisms: ["Staphylococcus aureus"] },
  },
  {
    query: "Does E. coli K-12 grow faster at 30 °C or at 37 °C in LB? Need growth rate and max OD.",
    expected_type: "MICROBIAL_GROWTH_MATRIX",
    expect: { organisms: ["Escherichia coli"] },
  },
];

const CUSTOM: CorpusEntry[] = [
  {
    query:
      "Does PX-17 at 8 µg/mL reduce P. aeruginosa PAO1 biofilm biomass by at least 50% (crystal violet)?",
    expected_type: "CUSTOM",
    expect: { organisms: ["Pseudomonas aeruginosa"], compounds: ["PX-17"] },
  },
  {
    query: "Western blot for phospho-ERK after trametinib treatment in A375 melanoma cells",
    expected_type: "CUSTOM",
    expect: { cell_lines: ["A375"], compounds: ["trametinib"] },
  },
  {
    query: "checkerboard synergy between colistin and rifampicin against A. baumannii ATCC 19606",
    expected_type: "CUSTOM",
    expect: { organisms: ["Acinetobacter baumannii"], compounds: ["colistin", "rifampicin"] },
  },
  {
    query: "Time-kill curves of PX-17 at 4x MIC against S. aureus over 24 h",
    expected_type: "CUSTOM",
    expect: { organisms: ["Staphylococcus aureus"], compounds: ["PX-17"] },
  },
  {
    query:
      "Flow cytometry (annexin V/PI) to quantify apoptosis in Jurkat cells treated with staurosporine 1 µM for 4 h",
    expected_type: "CUSTOM",
    expect: { cell_lines: ["Jurkat"], compounds: ["staurosporine"] },
  },
  {
    query: "Hemolysis assay of the antimicrobial peptide AMP-5 on human red blood cells at 1-128 µg/mL",
    expected_type: "CUSTOM",
    expect: { compounds: ["AMP-5"] },
  },
  {
    query: "ELISA: does LPS-primed THP-1 secrete less IL-1β when pretreated with MCC950?",
    expected_type: "CUSTOM",
    expect: { cell_lines: ["THP-1"], compounds: ["MCC950"] },
  },
  {
    query: "Scratch wound healing assay: does PX-17 slow migration of MDA-MB-231 cells over 24 h?",
    expected_type: "CUSTOM",
    context: "PX-17 showed no cytotoxicity below 10 µM in earlier screens.",
    expect: { cell_lines: ["MDA-MB-231"], compounds: ["PX-17"] },
  },
];

/** Every query, 7-8 per experiment type (57 in all). Frozen: copy before changing. */
export const ENGINE_QUERY_CORPUS: readonly CorpusEntry[] = deepFreeze([
  ...MIC,
  ...ZONE,
  ...VIABILITY,
  ...ENZYME,
  ...QPCR,
  ...SANGER,
  ...GROWTH,
  ...CUSTOM,
]);
