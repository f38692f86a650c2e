/**
 * Antimicrobial agents the offline rules engine recognises, with their drug class. Also the
 * selection antibiotics of cell culture and cloning (G418, puromycin, hygromycin B …), which
 * appear in plasmid and cell-line requests.
 *
 * Hand-curated from standard pharmacology: names, common synonyms and class only. No MIC
 * ranges, breakpoints or doses are stored (they would have to be looked up, not recalled).
 */
import type { Antimicrobial } from "./types.js";

type Entry = [name: string, drugClass: string, synonyms?: readonly string[], exactCase?: readonly string[]];

const antibacterial = (entries: readonly Entry[]): Antimicrobial[] =>
  entries.map(([name, drugClass, synonyms = [], exactCase]) => ({
    name,
    class: drugClass,
    spectrum: "antibacterial",
    synonyms,
    ...(exactCase ? { exactCase } : {}),
  }));

const withSpectrum = (spectrum: Antimicrobial["spectrum"], entries: readonly Entry[]): Antimicrobial[] =>
  antibacterial(entries).map((entry) => ({ ...entry, spectrum }));

export const ANTIMICROBIALS: readonly Antimicrobial[] = [
  ...antibacterial([
    // beta-lactams
    ["benzylpenicillin", "penicillin", ["penicillin G", "penicillin"]],
    ["ampicillin", "penicillin"],
    ["amoxicillin", "penicillin", ["amoxycillin"]],
    ["oxacillin", "penicillin"],
    ["methicillin", "penicillin", ["meticillin"]],
    ["piperacillin", "penicillin"],
    ["carbenicillin", "penicillin"],
    ["cefazolin", "cephalosporin", ["cephazolin"]],
    ["cefalexin", "cephalosporin", ["cephalexin"]],
    ["cefoxitin", "cephamycin"],
    ["cefuroxime", "cephalosporin"],
    ["ceftriaxone", "cephalosporin"],
    ["cefotaxime", "cephalosporin"],
    ["ceftazidime", "cephalosporin"],
    ["cefepime", "cephalosporin"],
    ["ceftaroline", "cephalosporin"],
    ["meropenem", "carbapenem"],
    ["imipenem", "carbapenem"],
    ["ertapenem", "carbapenem"],
    ["doripenem", "carbapenem"],
    ["aztreonam", "monobactam"],
    [
      "amoxicillin-clavulanate",
      "penicillin + beta-lactamase inhibitor",
      ["co-amoxiclav", "amoxicillin/clavulanate"],
    ],
    [
      "piperacillin-tazobactam",
      "penicillin + beta-lactamase inhibitor",
      ["pip-tazo", "pip/tazo", "piperacillin/tazobactam"],
    ],
    ["ceftazidime-avibactam", "cephalosporin + beta-lactamase inhibitor", ["ceftazidime/avibactam"]],
    ["clavulanic acid", "beta-lactamase inhibitor", ["clavulanate"]],
    ["sulbactam", "beta-lactamase inhibitor"],
    ["tazobactam", "beta-lactamase inhibitor"],
    ["avibactam", "beta-lactamase inhibitor"],
    // cell-wall and membrane agents
    ["vancomycin", "glycopeptide", ["vanco"]],
    ["teicoplanin", "glycopeptide"],
    ["dalbavancin", "lipoglycopeptide"],
    ["oritavancin", "lipoglycopeptide"],
    ["telavancin", "lipoglycopeptide"],
    ["daptomycin", "lipopeptide"],
    ["colistin", "polymyxin", ["polymyxin E", "colistin sulfate"]],
    ["polymyxin B", "polymyxin"],
    ["bacitracin", "polypeptide"],
    ["fosfomycin", "phosphonic acid"],
    ["nisin", "lantibiotic"],
    // protein-synthesis inhibitors
    ["gentamicin", "aminoglycoside", ["gentamycin"]],
    ["tobramycin", "aminoglycoside"],
    ["amikacin", "aminoglycoside"],
    ["kanamycin", "aminoglycoside"],
    ["streptomycin", "aminoglycoside"],
    ["neomycin", "aminoglycoside"],
    ["spectinomycin", "aminocyclitol"],
    ["tetracycline", "tetracycline"],
    ["doxycycline", "tetracycline"],
    ["minocycline", "tetracycline"],
    ["tigecycline", "glycylcycline"],
    ["erythromycin", "macrolide"],
    ["azithromycin", "macrolide"],
    ["clarithromycin", "macrolide"],
    ["clindamycin", "lincosamide"],
    ["linezolid", "oxazolidinone"],
    ["tedizolid", "oxazolidinone"],
    ["chloramphenicol", "amphenicol"],
    ["fusidic acid", "fusidane", ["sodium fusidate"]],
    ["mupirocin", "monoxycarbolic acid"],
    ["quinupristin-dalfopristin", "streptogramin", ["quinupristin/dalfopristin"]],
    // nucleic-acid and folate-pathway agents
    ["ciprofloxacin", "fluoroquinolone", ["cipro"]],
    ["levofloxacin", "fluoroquinolone"],
    ["moxifloxacin", "fluoroquinolone"],
    ["norfloxacin", "fluoroquinolone"],
    ["ofloxacin", "fluoroquinolone"],
    ["nalidixic acid", "quinolone"],
    ["rifampicin", "rifamycin", ["rifampin"]],
    ["metronidazole", "nitroimidazole"],
    ["nitrofurantoin", "nitrofuran"],
    ["trimethoprim", "diaminopyrimidine (folate pathway)"],
    ["sulfamethoxazole", "sulfonamide (folate pathway)"],
    [
      "trimethoprim-sulfamethoxazole",
      "folate pathway combination",
      ["co-trimoxazole", "TMP-SMX", "TMP/SMX", "cotrimoxazole"],
      ["TMP-SMX", "TMP/SMX"],
    ],
  ]),
  ...withSpectrum("antimycobacterial", [
    ["isoniazid", "antimycobacterial"],
    ["ethambutol", "antimycobacterial"],
    ["pyrazinamide", "antimycobacterial"],
    ["bedaquiline", "diarylquinoline"],
  ]),
  ...withSpectrum("antifungal", [
    ["fluconazole", "azole"],
    ["voriconazole", "azole"],
    ["itraconazole", "azole"],
    ["posaconazole", "azole"],
    ["amphotericin B", "polyene", ["amphotericin", "AmB"], ["AmB"]],
    ["nystatin", "polyene"],
    ["caspofungin", "echinocandin"],
    ["micafungin", "echinocandin"],
    ["anidulafungin", "echinocandin"],
    ["flucytosine", "pyrimidine analogue", ["5-fluorocytosine", "5-FC"], ["5-FC"]],
    ["terbinafine", "allylamine"],
  ]),
  ...withSpectrum("antiseptic", [
    ["chlorhexidine", "biguanide antiseptic"],
    ["triclosan", "phenolic antiseptic"],
    ["benzalkonium chloride", "quaternary ammonium antiseptic"],
  ]),
  ...withSpectrum("selection", [
    ["G418", "aminoglycoside (selection agent)", ["geneticin"]],
    ["puromycin", "aminonucleoside (selection agent)"],
    ["hygromycin B", "aminoglycoside (selection agent)", ["hygromycin"]],
    ["blasticidin S", "nucleoside (selection agent)", ["blasticidin"]],
    ["zeocin", "bleomycin family (selection agent)", ["phleomycin D1"]],
  ]),
];
