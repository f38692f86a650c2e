/**
 * The cloud labs Petri knows (docs/api.md "Cloud lab provider"). All three are Petri's own sandbox
 * labs: simulated, with realistic capabilities and prices, until a deployment connects a real
 * lab behind one of them. Their names say which real service each imitates in protocol format
 * only; nothing here claims what Emerald Cloud Lab or Strateos offer.
 *
 * Prices (decision): base_cost_usd + per_sample_usd x sample_count, where sample_count counts
 * assay units (wells, reactions, reads, disks; see ./capabilities.ts). They are set so a typical
 * request of each supported type lands inside the market bands of docs/intake-model.md
 * (e.g. a 10-point MIC in triplicate, 30 wells, costs 200-400 USD); a test holds them there.
 *
 * Coverage: between them all eight types. CUSTOM only on the SLL sandbox, whose unit-operation
 * protocols can carry free-text manual steps; zone of inhibition and Sanger only where imaging
 * or sequencing exists.
 */

import { EXPERIMENT_TYPES, type ExperimentTypeName } from "@petri/contracts/vocabulary";
import type { CloudLabProvider } from "../plan.js";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const item of Object.values(value as Record<string, unknown>)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

const SIMULATED =
  "Simulated by Petri: protocols are translated, validated and recorded, and results are simulated, unless this deployment connects a real lab to it.";

export const PROVIDERS: readonly CloudLabProvider[] = deepFreeze([
  {
    id: "petri-sll-sandbox",
    name: "Petri SLL sandbox (Emerald-style)",
    description: `Petri's sandbox cloud lab that takes protocols in Symbolic Lab Language (SLL) unit operations, the format of Emerald Cloud Lab. Plate-reader assays, mammalian cell culture, qPCR, microbial growth and custom step-by-step protocols up to BSL-2. ${SIMULATED}`,
    protocol_format: "sll",
    supported_experiment_types: [
      "MIC_MBC_ASSAY",
      "CELL_VIABILITY_IC50",
      "ENZYME_INHIBITION_IC50",
      "QPCR_EXPRESSION",
      "MICROBIAL_GROWTH_MATRIX",
      "CUSTOM",
    ],
    status: "available",
    capabilities: {
      cell_lines: [
        "A549",
        "Caco-2",
        "CHO-K1",
        "HaCaT",
        "HCT116",
        "HEK293",
        "HEK293T",
        "HeLa",
        "HepG2",
        "HT-29",
        "Jurkat",
        "K562",
        "MCF7",
        "MDA-MB-231",
        "NIH/3T3",
        "PC-3",
        "RAW 264.7",
        "SH-SY5Y",
        "THP-1",
        "U2OS",
        "Vero",
      ],
      plate_formats: ["96-well", "384-well"],
      detection_methods: ["absorbance", "fluorescence", "luminescence", "qpcr_fluorescence"],
    },
    pricing: { base_cost_usd: 150, per_sample_usd: 6 },
    turnaround_days: { min: 5, max: 12 },
    max_bsl: "BSL-2",
  },
  {
    id: "petri-autoprotocol-sandbox",
    name: "Petri Autoprotocol sandbox (Strateos-style)",
    description: `Petri's sandbox cloud lab that takes protocols in Autoprotocol JSON, the format of Strateos robotic workcells. Plate-reader assays, mammalian cell culture, qPCR, growth curves and Sanger sequencing, BSL-1 work only. ${SIMULATED}`,
    protocol_format: "autoprotocol",
    supported_experiment_types: [
      "MIC_MBC_ASSAY",
      "CELL_VIABILITY_IC50",
      "ENZYME_INHIBITION_IC50",
      "QPCR_EXPRESSION",
      "MICROBIAL_GROWTH_MATRIX",
      "SANGER_PLASMID_VERIFICATION",
    ],
    status: "available",
    capabilities: {
      cell_lines: ["A549", "HaCaT", "HCT116", "HEK293", "HEK293T", "HeLa", "HepG2", "MCF7", "U2OS"],
      plate_formats: ["96-well", "384-well"],
      detection_methods: [
        "absorbance",
        "fluorescence",
        "luminescence",
        "qpcr_fluorescence",
        "sanger_sequencing",
      ],
    },
    pricing: { base_cost_usd: 120, per_sample_usd: 7 },
    turnaround_days: { min: 4, max: 10 },
    max_bsl: "BSL-1",
  },
  {
    id: "petri-microbiology-sandbox",
    name: "Petri microbiology sandbox (Autoprotocol)",
    description: `Petri's sandbox microbiology lab that takes protocols in Autoprotocol JSON: broth microdilution MICs, disk diffusion with plate imaging and growth curves, up to BSL-2, on 96- and 384-well plates. No cell culture. ${SIMULATED}`,
    protocol_format: "autoprotocol",
    supported_experiment_types: ["MIC_MBC_ASSAY", "ZONE_OF_INHIBITION", "MICROBIAL_GROWTH_MATRIX"],
    status: "available",
    capabilities: {
      cell_lines: [],
      plate_formats: ["96-well", "384-well"],
      detection_methods: ["absorbance", "fluorescence", "imaging"],
    },
    pricing: { base_cost_usd: 120, per_sample_usd: 5 },
    turnaround_days: { min: 3, max: 7 },
    max_bsl: "BSL-2",
  },
] satisfies CloudLabProvider[]);

export function findProvider(
  id: string,
  providers: readonly CloudLabProvider[] = PROVIDERS,
): CloudLabProvider | undefined {
  return providers.find((provider) => provider.id === id);
}

export const EXPERIMENT_TYPE_DESCRIPTIONS: Readonly<Record<ExperimentTypeName, string>> = Object.freeze({
  SANGER_PLASMID_VERIFICATION:
    "Sanger sequencing of a plasmid, PCR product or genomic template against its expected sequence.",
  QPCR_EXPRESSION: "RT-qPCR gene expression with reference-gene normalisation (SYBR Green or TaqMan).",
  CELL_VIABILITY_IC50: "Dose-response viability of a cell line to a compound, with an IC50 fit.",
  ENZYME_INHIBITION_IC50: "Dose-response inhibition of an enzyme by a compound, with an IC50 fit.",
  MICROBIAL_GROWTH_MATRIX: "Growth curves (OD600) of a microbe across a matrix of conditions.",
  MIC_MBC_ASSAY: "Broth microdilution MIC (CLSI M07 style) of compounds against organisms, optionally MBC.",
  ZONE_OF_INHIBITION: "Disk diffusion zones of inhibition (CLSI M02 style) on an agar lawn.",
  CUSTOM: "A custom step-by-step protocol, run as written.",
});

export interface SupportedType {
  experiment_type: ExperimentTypeName;
  providers: string[];
  description: string;
}

/**
 * GET /cloud-labs/supported-types: every type, with the available providers that run it (in
 * catalog order). A type no available provider runs is listed with an empty providers list.
 */
export function supportedTypes(providers: readonly CloudLabProvider[] = PROVIDERS): SupportedType[] {
  return EXPERIMENT_TYPES.map((type) => ({
    experiment_type: type,
    providers: providers
      .filter((p) => p.status === "available" && p.supported_experiment_types.includes(type))
      .map((p) => p.id),
    description: EXPERIMENT_TYPE_DESCRIPTIONS[type],
  }));
}
