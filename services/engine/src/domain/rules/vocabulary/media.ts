/**
 * Growth media the offline rules engine recognises (for the base medium of growth and MIC
 * drafts). Hand-curated; names and usual abbreviations only, no compositions.
 */
import type { Medium } from "./types.js";

export const MEDIA: readonly Medium[] = [
  {
    name: "Cation-adjusted Mueller-Hinton broth",
    synonyms: ["CAMHB", "CA-MHB", "cation adjusted Mueller-Hinton broth", "cation-adjusted MHB"],
    for: "bacteria",
  },
  {
    name: "Mueller-Hinton broth",
    synonyms: ["MHB", "Mueller Hinton broth", "Muller-Hinton broth"],
    for: "bacteria",
  },
  {
    name: "Mueller-Hinton agar",
    synonyms: ["MHA", "Mueller Hinton agar", "Muller-Hinton agar"],
    for: "bacteria",
  },
  {
    name: "LB broth",
    synonyms: ["LB", "LB medium", "Luria-Bertani", "Luria broth", "lysogeny broth"],
    for: "bacteria",
  },
  { name: "LB agar", synonyms: ["Luria agar"], for: "bacteria" },
  {
    name: "Tryptic soy broth",
    synonyms: ["TSB", "trypticase soy broth", "tryptone soy broth"],
    for: "bacteria",
  },
  { name: "Tryptic soy agar", synonyms: ["TSA plates"], for: "bacteria" },
  { name: "Brain heart infusion broth", synonyms: ["BHI", "brain heart infusion"], for: "bacteria" },
  { name: "M9 minimal medium", synonyms: ["M9", "M9 minimal", "M9 medium", "M9 salts"], for: "bacteria" },
  { name: "2xYT medium", synonyms: ["2xYT", "2YT", "2x YT"], for: "bacteria" },
  { name: "SOC medium", synonyms: ["SOC"], for: "bacteria" },
  { name: "Middlebrook 7H9 broth", synonyms: ["7H9", "Middlebrook 7H9"], for: "bacteria" },
  { name: "Todd-Hewitt broth", synonyms: ["THB", "Todd Hewitt broth"], for: "bacteria" },
  { name: "MRS broth", synonyms: ["MRS", "de Man, Rogosa and Sharpe broth", "MRS medium"], for: "bacteria" },
  { name: "YPD medium", synonyms: ["YPD", "YEPD", "yeast extract peptone dextrose"], for: "fungi" },
  { name: "Sabouraud dextrose broth", synonyms: ["SDB", "Sabouraud broth"], for: "fungi" },
  { name: "Sabouraud dextrose agar", synonyms: ["SDA", "Sabouraud agar"], for: "fungi" },
  { name: "RPMI 1640", synonyms: ["RPMI-1640", "RPMI"], for: "microbes" },
  {
    name: "DMEM",
    synonyms: ["Dulbecco's modified Eagle medium", "Dulbecco's Modified Eagle's Medium"],
    for: "mammalian cells",
  },
  { name: "MEM", synonyms: ["minimum essential medium", "EMEM"], for: "mammalian cells" },
];
