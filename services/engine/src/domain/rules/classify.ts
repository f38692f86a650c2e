/**
 * Experiment-type classification by weighted cues (docs/assay-notes.md §4.4).
 *
 * Each type scores the weights of its cue phrases found in the query (half weight in the
 * context) plus entity evidence (e.g. an organism and an antimicrobial for MIC). CUSTOM has
 * cues of its own (biofilm, western blot, flow cytometry …) so that a query about another
 * assay is not forced into the nearest standard type. The caller's experiment_type always wins.
 * Otherwise the best type needs at least MIN_SCORE and a lead of at least MIN_LEAD over the
 * runner-up; anything else (a weak or tied signal) is CUSTOM.
 */

import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import type { Extraction } from "./extract.js";

export interface Cue {
  pattern: RegExp;
  weight: number;
  /** How the cue is named in the trace. */
  label: string;
}

const cue = (label: string, weight: number, pattern: RegExp): Cue => ({ label, weight, pattern });

export const CUES: Readonly<Record<ExperimentTypeName, readonly Cue[]>> = {
  MIC_MBC_ASSAY: [
    cue("MIC", 4, /\bMIC(?:s|50|90)?\b/),
    cue("MBC/MFC", 4, /\bM[BF]Cs?\b/),
    cue("minimum inhibitory concentration", 5, /\bminim(?:um|al) inhibitory conc/i),
    cue(
      "minimum bactericidal/fungicidal concentration",
      5,
      /\bminim(?:um|al) (?:bactericidal|fungicidal|lethal) conc/i,
    ),
    cue("broth dilution", 4, /\bbroth (?:micro|macro)?-?dilution\b|\bmicrobroth dilution\b/i),
    cue("agar dilution", 3, /\bagar dilution\b/i),
    cue("susceptibility", 2, /\bsusceptib(?:le|ility)\b|\bAST\b/i),
    cue("bacteriostatic/bactericidal", 1, /\bbacteri(?:ostatic|cidal)\b|\bfung(?:istatic|icidal)\b/i),
    cue("breakpoint", 1, /\bbreakpoints?\b/i),
    cue("two-fold dilution series", 1, /\b(?:two|2)-?fold (?:serial )?dilutions?\b/i),
  ],
  ZONE_OF_INHIBITION: [
    cue(
      "zone of inhibition",
      5,
      /\bzones?[- ]of[- ](?:growth[- ])?inhibition\b|\binhibition[- ]zones?\b|\bzone diameters?\b|\bclear(?:ing)? zones?\b/i,
    ),
    cue("disk diffusion", 5, /\bdis[ck][- ]diffusion\b|\bdiffusion dis[ck]s?\b/i),
    cue("Kirby-Bauer", 5, /\bkirby[- ]?bauer\b/i),
    cue("agar well diffusion", 5, /\b(?:agar )?well[- ]diffusion\b/i),
    cue("halo", 2, /\bhalos?\b/i),
    cue("disk/disc", 1, /\b(?:paper |filter |antibiotic )?dis[ck]s?\b/i),
    cue("lawn", 1, /\blawns?\b/i),
  ],
  CELL_VIABILITY_IC50: [
    cue("IC50/EC50", 2, /\b(?:IC|EC)\s?-?\s?50s?\b/i),
    cue("GI50/CC50", 4, /\b(?:GI|CC|LC)\s?-?\s?50s?\b/i),
    cue("cytotoxicity", 4, /\bcyto-?toxi(?:c|city)\b/i),
    cue("viability", 4, /\bviab(?:le|ility)\b/i),
    cue("MTT/MTS", 4, /\bMT[TS]\b/),
    cue("CellTiter-Glo", 5, /\bcell-?titer[- ]?glo\b|\bCTG\b/i),
    cue("resazurin/alamarBlue", 2, /\bresazurin\b|\balamar ?blue\b|\bpresto ?blue\b/i),
    cue("ATP luminescence", 2, /\bATP[- ](?:content|luminescence|levels?|based)\b/i),
    cue("proliferation", 3, /\b(?:anti-?)?proliferat(?:ion|ive)\b/i),
    cue("dose-response", 1, /\bdose[- ]response\b|\bconcentration[- ]response\b/i),
    cue("cell killing", 2, /\bkills? (?:the )?(?:cancer |tumou?r )?cells\b|\bcell (?:death|killing)\b/i),
    cue("cell line", 1, /\bcell lines?\b/i),
  ],
  ENZYME_INHIBITION_IC50: [
    cue("enzyme", 3, /\benzym(?:e|es|atic)\b/i),
    cue(
      "kinase/protease/…",
      2,
      /\b(?:kinase|protease|proteinase|peptidase|phosphatase|esterase|lipase|reductase|oxidase|dehydrogenase|synthase|deacetylase|polymerase|lactamase|carbapenemase)s?\b/i,
    ),
    cue("Ki/Km/Vmax", 3, /\bK[im]\b|\bV\s?max\b|\bkcat\b|\bMichaelis\b|\bCheng-?Prusoff\b/i),
    cue("substrate", 2, /\bsubstrates?\b/i),
    cue("activity assay", 3, /\b(?:enzyme|enzymatic|biochemical|kinase|protease|activity) assays?\b/i),
    cue("recombinant/purified", 2, /\brecombinant\b|\bpurified\b/i),
    cue(
      "fluorogenic/chromogenic",
      3,
      /\bfluorogenic\b|\bchromogenic\b|\bADP-?Glo\b|\bFRET substrate\b|\bnitrocefin\b|\bEllman\b/i,
    ),
    cue("IC50", 2, /\bIC\s?-?\s?50s?\b/i),
    cue("inhibitor", 1, /\binhibit(?:or|ors|ion)\b/i),
    cue("initial rate", 2, /\binitial (?:rates?|velocit)/i),
  ],
  QPCR_EXPRESSION: [
    cue("qPCR/RT-PCR", 5, /\b(?:RT-?)?q-?PCR\b|\breal[- ]time (?:RT-?)?PCR\b|\bRT-?PCR\b/i),
    cue("gene expression", 4, /\bgene expression\b|\bexpression (?:levels?|of (?:the )?genes?)\b/i),
    cue("mRNA/transcript", 3, /\bmRNAs?\b|\btranscripts?\b|\btranscription(?:al)?\b/i),
    cue("expression", 1, /\bexpress(?:ion|ed)\b/i),
    cue("fold change", 2, /\bfold[- ]?changes?\b|\b\d+(?:\.\d+)?\s?-?\s?fold\b/i),
    cue(
      "ΔΔCt/Cq",
      4,
      /\b(?:delta\s?delta|dd)\s?C[tq]\b|\b2\^-?\(?(?:delta\s?delta|dd)C[tq]\b|\bC[tq] values?\b|\bLivak\b|\bPfaffl\b/i,
    ),
    cue("up/down-regulation", 2, /\b(?:up|down)-?regulat(?:e|es|ed|ion|ing)\b/i),
    cue("reference genes", 3, /\bhousekeeping\b|\breference genes?\b|\bnormali[sz]ed to\b/i),
    cue("TaqMan/SYBR", 4, /\btaq-?man\b|\bSYBR\b/i),
    cue("knockdown", 1, /\bknock-?down\b|\bsiRNA\b|\bshRNA\b/i),
  ],
  SANGER_PLASMID_VERIFICATION: [
    cue("Sanger", 6, /\bsanger\b/i),
    cue(
      "sequence-verify",
      5,
      /\bsequence[- ]?verif(?:y|ied|ication)\b|\bverify (?:the )?(?:sequence|by sequencing)\b|\bsequence confirm/i,
    ),
    cue(
      "verify plasmid/construct/clone",
      3,
      /\b(?:verify|confirm|check)\w* (?:the |our |my |that the |whether the |if the )?(?:plasmid|construct|clone|insert|ligation|cloning|mutation|mutagenesis|orientation)s?\b/i,
    ),
    cue("plasmid/construct", 2, /\bplasmids?\b|\bconstructs?\b|\bvectors?\b/i),
    cue("insert", 2, /\binserts?\b|\bORF\b/i),
    cue("sequencing", 2, /\bsequencing\b|\bsequenced\b|\breads?\b/i),
    cue("primer", 1, /\bprimers?\b/i),
    cue("mutagenesis", 2, /\b(?:site-?directed )?mutagenesis\b|\bpoint mutations?\b/i),
    cue("miniprep/colony", 2, /\bminipreps?\b|\bcolon(?:y|ies) PCR\b|\bclones?\b/i),
    cue("chromatogram", 2, /\bchromatograms?\b|\btrace files?\b|\b\.?ab1\b/i),
    cue("cloning", 1, /\bcloning\b|\bgibson\b|\bgolden gate\b|\bligation\b/i),
  ],
  MICROBIAL_GROWTH_MATRIX: [
    cue("growth curve", 5, /\bgrowth curves?\b|\bgrowth kinetics\b/i),
    cue("OD600", 3, /\bOD\s?-?600\b|\boptical density\b/i),
    cue("doubling time", 5, /\bdoubling times?\b|\bgeneration times?\b/i),
    cue("lag phase", 3, /\blag (?:phase|times?)\b|\bexponential phase\b|\bstationary phase\b|\blog phase\b/i),
    cue("growth rate", 4, /\bgrowth rates?\b|\bspecific growth\b|\bmu\s?max\b/i),
    cue(
      "media/conditions matrix",
      3,
      /\b(?:condition|media|medium|growth) matri(?:x|ces)\b|\bcarbon sources?\b|\bnitrogen sources?\b/i,
    ),
    cue(
      "media × temperature",
      2,
      /\b(?:different|various|several|multiple|range of) (?:media|temperatures|pH|carbon|salt|NaCl|conditions)\b/i,
    ),
    cue(
      "grows faster/slower",
      3,
      /\bgrows? (?:faster|slower|better|worse)\b|\bgrowth (?:is |was )?(?:faster|slower|better|impaired|enhanced)\b/i,
    ),
    cue("growth", 1, /\bgrowth\b/i),
    cue(
      "plate reader kinetics",
      2,
      /\bkinetic (?:reads?|measurements?)\b|\bevery \d+ ?min|\bplate[- ]reader\b/i,
    ),
  ],
  CUSTOM: [
    cue("biofilm", 5, /\bbiofilms?\b/i),
    cue("crystal violet", 3, /\bcrystal violet\b/i),
    cue("western blot", 6, /\bwestern (?:blot|blotting)\b|\bimmunoblot/i),
    cue("flow cytometry", 6, /\bflow cytometr|\bFACS\b/i),
    cue("ELISA", 6, /\bELISA\b|\bcytokine secretion\b|\bLuminex\b/i),
    cue("time-kill", 8, /\btime[- ]kill\b|\bkill(?:ing)? (?:curves?|kinetics)\b/i),
    cue("checkerboard/synergy", 6, /\bcheckerboard\b|\bFICI?\b|\bsynerg(?:y|istic|ism)\b/i),
    cue("hemolysis", 6, /\bh(?:a)?emoly(?:sis|tic)\b/i),
    cue(
      "migration/wound healing",
      6,
      /\bwound[- ]healing\b|\bscratch assay\b|\btranswell\b|\bcell migration\b|\binvasion assay\b/i,
    ),
    cue("microscopy", 3, /\bmicroscop(?:y|e)\b|\bimmunofluorescence\b|\bconfocal\b|\bimaging\b/i),
    cue(
      "mass spectrometry/HPLC",
      4,
      /\bmass spec(?:trometry)?\b|\bLC-?MS\b|\bHPLC\b|\bmetabolomic|\bproteomic/i,
    ),
    cue("colony formation", 5, /\bcolony formation\b|\bclonogenic\b|\bsoft agar\b/i),
    cue("apoptosis", 3, /\bapoptosis\b|\bannexin\b|\bcaspase[- ]?3\/7\b|\bTUNEL\b/i),
    cue(
      "sequencing (not Sanger)",
      5,
      /\bRNA-?seq\b|\bwhole[- ]genome\b|\bmetagenom|\bnanopore\b|\billumina\b|\bsingle[- ]cell\b/i,
    ),
    cue("reporter assay", 4, /\b(?:luciferase|reporter) assay\b|\bdual[- ]luciferase\b/i),
    cue("in vivo", 6, /\bin vivo\b|\bmice\b|\bmouse model\b|\bzebrafish\b|\bgalleria\b|\bC\. elegans\b/i),
    cue(
      "motility/persisters",
      5,
      /\bswarming\b|\btwitching\b|\bmotility\b|\bpersisters?\b|\befflux\b|\bquorum sensing\b/i,
    ),
    cue(
      "membrane/ROS readout",
      3,
      /\bmembrane (?:potential|permeabili[sz]ation)\b|\bROS\b|\breactive oxygen\b|\bpropidium\b/i,
    ),
    cue("organoid/co-culture", 3, /\borganoids?\b|\bco-?cultures?\b|\bspheroids?\b/i),
    cue("protein level", 3, /\bprotein (?:levels?|abundance|expression)\b/i),
    cue("cytokine release", 3, /\bcytokine (?:release|production)\b|\bsecret(?:ion|ed)\b/i),
  ],
};

export const MIN_SCORE = 4;
export const MIN_LEAD = 1;

export interface CueHit {
  type: ExperimentTypeName;
  label: string;
  weight: number;
  /** "context" when found only in the context. */
  where: "query" | "context";
}

export interface Classification {
  type: ExperimentTypeName;
  /** "caller" when the caller chose the type; "cues" when it won; "fallback" when weak or tied. */
  decidedBy: "caller" | "cues" | "fallback";
  scores: Record<ExperimentTypeName, number>;
  cues: CueHit[];
  evidence: { type: ExperimentTypeName; label: string; weight: number }[];
  /** The runner-up when the decision was a tie or too close. */
  runnerUp?: ExperimentTypeName;
}

function entityEvidence(
  extraction: Extraction,
  text: string,
): { type: ExperimentTypeName; label: string; weight: number }[] {
  const out: { type: ExperimentTypeName; label: string; weight: number }[] = [];
  const organisms = extraction.organisms.length > 0;
  const antimicrobials = extraction.compounds.some((c) => c.source === "antimicrobial");
  const compounds = extraction.compounds.length > 0;
  const cells = extraction.cellLines.length > 0;
  const enzymes = extraction.enzymes.length > 0;
  const targetGenes = extraction.genes.some((g) => g.entry?.role !== "reference");
  const expressionWords = /\bexpress|\bmRNA|\btranscri|\bq-?PCR|\bfold|\bregulat|\bCt\b|\bCq\b/i.test(text);
  if (organisms && (antimicrobials || compounds)) {
    out.push({
      type: "MIC_MBC_ASSAY",
      label: "organism + antimicrobial agent",
      weight: antimicrobials ? 2 : 1,
    });
    out.push({ type: "ZONE_OF_INHIBITION", label: "organism + antimicrobial agent", weight: 1 });
  }
  if (cells && compounds) out.push({ type: "CELL_VIABILITY_IC50", label: "cell line + compound", weight: 2 });
  if (enzymes && !cells)
    out.push({ type: "ENZYME_INHIBITION_IC50", label: "enzyme, no cells", weight: compounds ? 4 : 3 });
  if (targetGenes) {
    out.push({ type: "QPCR_EXPRESSION", label: "gene symbols", weight: expressionWords ? 3 : 1 });
  }
  if (extraction.plasmids.length > 0) {
    out.push({ type: "SANGER_PLASMID_VERIFICATION", label: "plasmid name", weight: 3 });
  }
  if (extraction.mutations.length > 0 && extraction.plasmids.length > 0) {
    out.push({ type: "SANGER_PLASMID_VERIFICATION", label: "mutation in a plasmid", weight: 1 });
  }
  // An organism, an agent we may not know by name, a mass concentration and a verb of
  // inhibiting: how people ask for a MIC without saying "MIC" ("does X inhibit S. aureus at
  // 64 ug/mL?").
  const massConcentration = extraction.concentrations.some((q) => /g\/(?:m?L)$/.test(q.unit));
  const inhibitionWords =
    /\binhibit(?:s|ed|ing|ion|ory)?\b|\bkill(?:s|ed|ing)?\b|\bantibacterial\b|\bantimicrobial\b/i.test(text);
  if (organisms && massConcentration && inhibitionWords) {
    out.push({ type: "MIC_MBC_ASSAY", label: "organism + inhibition at a mass concentration", weight: 3 });
  }
  if (organisms && !compounds && !(massConcentration && inhibitionWords)) {
    out.push({ type: "MICROBIAL_GROWTH_MATRIX", label: "organism, no drug", weight: 2 });
  }
  if (
    organisms &&
    (extraction.media.length > 1 || extraction.temperatures.length > 1 || extraction.phValues.length > 1)
  ) {
    out.push({ type: "MICROBIAL_GROWTH_MATRIX", label: "organism + several conditions", weight: 2 });
  }
  return out;
}

function emptyScores(): Record<ExperimentTypeName, number> {
  return {
    SANGER_PLASMID_VERIFICATION: 0,
    QPCR_EXPRESSION: 0,
    CELL_VIABILITY_IC50: 0,
    ENZYME_INHIBITION_IC50: 0,
    MICROBIAL_GROWTH_MATRIX: 0,
    MIC_MBC_ASSAY: 0,
    ZONE_OF_INHIBITION: 0,
    CUSTOM: 0,
  };
}

export function classify(
  query: string,
  context: string,
  extraction: Extraction,
  callerType?: ExperimentTypeName,
): Classification {
  const scores = emptyScores();
  const cues: CueHit[] = [];
  for (const [type, list] of Object.entries(CUES) as [ExperimentTypeName, readonly Cue[]][]) {
    for (const c of list) {
      if (c.pattern.test(query)) {
        cues.push({ type, label: c.label, weight: c.weight, where: "query" });
        scores[type] += c.weight;
      } else if (context !== "" && c.pattern.test(context)) {
        cues.push({ type, label: c.label, weight: c.weight / 2, where: "context" });
        scores[type] += c.weight / 2;
      }
    }
  }
  const evidence = entityEvidence(extraction, query);
  for (const e of evidence) scores[e.type] += e.weight;

  if (callerType) return { type: callerType, decidedBy: "caller", scores, cues, evidence };

  const ranked = (Object.entries(scores) as [ExperimentTypeName, number][]).sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked as [[ExperimentTypeName, number], [ExperimentTypeName, number]];
  if (best[1] >= MIN_SCORE && best[1] - second[1] >= MIN_LEAD) {
    return { type: best[0], decidedBy: "cues", scores, cues, evidence };
  }
  return {
    type: "CUSTOM",
    decidedBy: "fallback",
    scores,
    cues,
    evidence,
    ...(best[1] > 0 ? { runnerUp: best[0] } : {}),
  };
}
