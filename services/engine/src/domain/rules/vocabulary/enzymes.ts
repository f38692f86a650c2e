/**
 * Enzymes and enzyme-like drug targets the offline rules engine recognises, with an enzyme
 * family and, where one is widely used, a reference inhibitor suggested as the positive
 * control of an inhibition assay.
 *
 * Hand-curated from standard biochemistry and pharmacology; names, aliases, family and
 * textbook inhibitor pairs only (no potencies). Enzymes not listed are still picked up from
 * phrases such as "XYZ kinase" or "ABC protease" (../extract.ts).
 */
import type { Enzyme } from "./types.js";

type Entry = [
  name: string,
  synonyms: readonly string[],
  referenceInhibitor?: string,
  exactCase?: readonly string[],
];

const family = (name: string, entries: readonly Entry[]): Enzyme[] =>
  entries.map(([enzyme, synonyms, referenceInhibitor, exactCase]) => ({
    name: enzyme,
    family: name,
    synonyms,
    ...(referenceInhibitor ? { referenceInhibitor } : {}),
    ...(exactCase ? { exactCase } : {}),
  }));

export const ENZYMES: readonly Enzyme[] = [
  ...family("esterase", [
    ["acetylcholinesterase", ["AChE", "acetylcholine esterase"], "donepezil", ["AChE"]],
    ["butyrylcholinesterase", ["BChE", "BuChE", "pseudocholinesterase"], undefined, ["BChE", "BuChE"]],
  ]),
  ...family("lyase", [
    [
      "carbonic anhydrase II",
      ["CA II", "CAII", "hCA II", "carbonic anhydrase 2", "CA2", "carbonic anhydrase"],
      "acetazolamide",
      ["CA II", "CAII", "CA2"],
    ],
  ]),
  ...family("beta-lactamase", [
    ["TEM-1 beta-lactamase", ["TEM-1"], "clavulanic acid"],
    ["KPC-2 carbapenemase", ["KPC-2", "KPC carbapenemase"], "avibactam"],
    ["NDM-1 metallo-beta-lactamase", ["NDM-1", "New Delhi metallo-beta-lactamase"], "EDTA"],
    ["OXA-48 carbapenemase", ["OXA-48"], "avibactam"],
    ["beta-lactamase", ["β-lactamase", "beta lactamase", "penicillinase"], "clavulanic acid"],
  ]),
  ...family("serine protease", [
    ["trypsin", [], "aprotinin"],
    ["chymotrypsin", ["alpha-chymotrypsin"], "chymostatin"],
    ["thrombin", ["factor IIa"], "argatroban"],
    ["factor Xa", ["FXa", "coagulation factor Xa"], "rivaroxaban", ["FXa"]],
    ["dipeptidyl peptidase 4", ["DPP-4", "DPP4", "DPP-IV", "CD26"], "sitagliptin"],
    ["neutrophil elastase", ["human neutrophil elastase", "HNE", "elastase"], "sivelestat", ["HNE"]],
  ]),
  ...family("cysteine protease", [
    ["cathepsin B", ["CTSB"], "E-64"],
    ["cathepsin K", ["CTSK"], "E-64"],
    ["cathepsin L", ["CTSL"], "E-64"],
    ["papain", [], "E-64"],
    ["caspase-3", ["caspase 3", "CASP-3"], "Ac-DEVD-CHO"],
    [
      "SARS-CoV-2 main protease",
      ["Mpro", "M-pro", "3CLpro", "3C-like protease", "nsp5", "main protease"],
      "nirmatrelvir",
    ],
    ["SARS-CoV-2 papain-like protease", ["PLpro", "papain-like protease"], "GRL0617"],
  ]),
  ...family("aspartic protease", [
    ["HIV-1 protease", ["HIV protease", "HIV-1 PR"], "darunavir"],
    ["renin", [], "aliskiren"],
  ]),
  ...family("metalloprotease", [
    ["angiotensin-converting enzyme", ["ACE", "ACE1", "angiotensin converting enzyme"], "captopril", ["ACE"]],
    ["neprilysin", ["NEP", "neutral endopeptidase"], "sacubitrilat", ["NEP"]],
    ["MMP-9", ["matrix metalloproteinase-9", "gelatinase B"], "GM6001"],
    ["MMP-2", ["matrix metalloproteinase-2", "gelatinase A"], "GM6001"],
  ]),
  ...family("proteasome", [["20S proteasome", ["proteasome", "26S proteasome"], "bortezomib"]]),
  ...family("oxidoreductase", [
    ["cyclooxygenase-1", ["COX-1", "COX1", "PTGS1"], "indomethacin"],
    ["cyclooxygenase-2", ["COX-2", "COX2", "PTGS2"], "celecoxib"],
    ["5-lipoxygenase", ["5-LOX", "ALOX5"], "zileuton"],
    ["xanthine oxidase", ["XO", "xanthine oxidoreductase"], "allopurinol", ["XO"]],
    ["tyrosinase", ["mushroom tyrosinase"], "kojic acid"],
    ["HMG-CoA reductase", ["HMGCR", "3-hydroxy-3-methylglutaryl-CoA reductase"], "atorvastatin"],
    ["dihydrofolate reductase", ["DHFR"], "methotrexate"],
    ["monoamine oxidase A", ["MAO-A", "MAOA"], "clorgyline"],
    ["monoamine oxidase B", ["MAO-B", "MAOB"], "selegiline"],
    ["lactate dehydrogenase A", ["LDH-A", "LDH"], "sodium oxamate", ["LDH"]],
    ["indoleamine 2,3-dioxygenase 1", ["IDO1", "IDO"], "epacadostat", ["IDO"]],
    ["dihydroorotate dehydrogenase", ["DHODH"], "brequinar"],
    ["aldose reductase", ["AKR1B1"], "epalrestat"],
    ["IMP dehydrogenase", ["IMPDH", "inosine monophosphate dehydrogenase"], "mycophenolic acid"],
    ["enoyl-ACP reductase FabI", ["FabI"], "triclosan", ["FabI"]],
    ["enoyl-ACP reductase InhA", ["InhA"], undefined, ["InhA"]],
  ]),
  ...family("glycoside hydrolase", [
    ["alpha-glucosidase", ["α-glucosidase", "alpha glucosidase"], "acarbose"],
    ["alpha-amylase", ["α-amylase", "alpha amylase"], "acarbose"],
    ["influenza neuraminidase", ["neuraminidase", "sialidase"], "oseltamivir carboxylate"],
  ]),
  ...family("hydrolase", [
    ["pancreatic lipase", ["lipase"], "orlistat"],
    ["urease", ["jack bean urease"], "acetohydroxamic acid"],
    ["alkaline phosphatase", ["ALP", "TNAP"], "levamisole", ["ALP"]],
    ["PTP1B", ["PTPN1", "protein tyrosine phosphatase 1B"], "sodium orthovanadate"],
    ["phosphodiesterase 5", ["PDE5", "PDE5A"], "sildenafil"],
    ["phosphodiesterase 4", ["PDE4"], "rolipram"],
    ["HDAC1", ["histone deacetylase 1"], "vorinostat"],
    ["HDAC6", ["histone deacetylase 6"], "tubastatin A"],
    ["HDAC", ["histone deacetylase", "histone deacetylases"], "vorinostat"],
    ["LpxC", ["UDP-3-O-acyl-N-acetylglucosamine deacetylase"], "CHIR-090"],
  ]),
  ...family("transferase", [
    ["PARP1", ["PARP-1", "poly(ADP-ribose) polymerase 1", "PARP"], "olaparib"],
    ["SIRT1", ["sirtuin 1"], "EX-527"],
    ["MurA", ["UDP-N-acetylglucosamine enolpyruvyl transferase"], "fosfomycin", ["MurA"]],
    ["dihydropteroate synthase", ["DHPS"], "sulfamethoxazole"],
    ["glutathione S-transferase", ["GST"], "ethacrynic acid", ["GST"]],
    ["NAMPT", ["nicotinamide phosphoribosyltransferase", "visfatin"], "FK866"],
  ]),
  ...family("topoisomerase", [
    ["topoisomerase I", ["topo I", "TOP1"], "camptothecin"],
    ["topoisomerase II", ["topo II", "TOP2A", "topoisomerase IIalpha"], "etoposide"],
    ["DNA gyrase", ["gyrase"], "ciprofloxacin"],
  ]),
  ...family("polymerase", [
    ["HIV-1 reverse transcriptase", ["HIV reverse transcriptase", "HIV RT"], "nevirapine"],
  ]),
  ...family("integrase", [["HIV-1 integrase", ["HIV integrase"], "raltegravir"]]),
  ...family("GTPase", [["KRAS G12C", ["KRAS(G12C)", "KRAS-G12C"], "sotorasib"]]),
  ...family("kinase", [
    ["EGFR kinase", ["EGFR", "ErbB1"], "gefitinib"],
    ["ABL1 kinase", ["ABL1", "BCR-ABL", "Bcr-Abl", "c-Abl", "ABL kinase"], "imatinib"],
    ["BRAF V600E", ["BRAF(V600E)", "B-Raf V600E", "BRAF"], "vemurafenib"],
    ["CDK2", ["CDK2/cyclin A", "CDK2/cyclin E"], "roscovitine"],
    ["CDK4/6", ["CDK4", "CDK6", "CDK4/cyclin D1"], "palbociclib"],
    ["PI3K alpha", ["PI3Kalpha", "PI3Kα", "PIK3CA", "p110alpha"], "alpelisib"],
    ["AKT1 kinase", ["AKT", "Akt1", "PKB"], "capivasertib"],
    ["mTOR kinase", ["mTOR"], "Torin 1"],
    ["JAK2", ["Janus kinase 2"], "ruxolitinib"],
    ["BTK", ["Bruton's tyrosine kinase", "Bruton tyrosine kinase"], "ibrutinib"],
    ["ALK", ["anaplastic lymphoma kinase"], "crizotinib"],
    ["MEK1", ["MAP2K1", "MEK"], "trametinib"],
    ["ERK2", ["MAPK1", "ERK"], "ulixertinib"],
    ["p38 alpha MAPK", ["p38alpha", "p38α", "MAPK14", "p38 MAPK", "p38"], "SB203580", ["p38"]],
    ["PKA", ["protein kinase A", "cAMP-dependent protein kinase"], "H-89"],
    ["Aurora kinase A", ["Aurora A", "AURKA"], "alisertib"],
    ["PLK1", ["polo-like kinase 1"], "volasertib"],
    ["GSK-3beta", ["GSK-3β", "GSK3B", "GSK-3", "GSK3beta"], "CHIR99021"],
    ["FLT3", ["FLT3-ITD"], "gilteritinib"],
    ["SRC kinase", ["c-Src", "Src"], "dasatinib"],
    ["VEGFR2", ["KDR", "VEGFR-2", "FLK1"], "axitinib"],
    ["MET kinase", ["c-Met", "MET"], "capmatinib", ["MET"]],
  ]),
];
