/**
 * Whether a provider can run a plan, what an assay scientist would warn about, and the price.
 *
 * sample_count (decision, set by domain/interpret): the assay units a lab prices, all replicates
 * included: MIC test wells (organisms x concentrations x technical x biological), zone disks,
 * viability and enzyme test wells, qPCR reactions (samples x genes x technical; biological
 * replicates are samples already), Sanger reads (templates x primers x replicates), growth
 * wells (conditions x replicates), custom steps x replicates. Controls, blanks and standards are
 * the lab's overhead, inside base_cost_usd. So the estimate is base + per_sample x sample_count,
 * with no further multiplication.
 *
 * Warnings follow docs/assay-notes.md section 7 and only the rules stated there; each
 * starts with its rule id (MIC-N, IC50-REP, QPCR-REF ...). The notes give ids for MIC, IC50 and
 * qPCR; the zone (M02), Sanger and growth rules of 7.1 and 7.4 get ZONE-, SANGER- and GROWTH- ids.
 */
import type { BslLevel, CloudLabProvider, LabPlan, PlanProblem } from "../plan.js";

const BSL_RANK: Record<BslLevel, number> = { "BSL-1": 1, "BSL-2": 2 };

const cellLineKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

function plateField(plan: LabPlan): string {
  return plan.experiment_type === "CELL_VIABILITY_IC50" ? "cell_viability.plate_format" : "plate_format";
}

function detectionField(plan: LabPlan): string {
  if (plan.experiment_type === "CELL_VIABILITY_IC50") return "cell_viability.assay_type";
  if (plan.experiment_type === "ENZYME_INHIBITION_IC50") return "enzyme_inhibition.assay_type";
  return "detection_method";
}

/** Everything that stops `provider` from running `plan`; empty when it can. */
export function capabilityProblems(plan: LabPlan, provider: CloudLabProvider): PlanProblem[] {
  const problems: PlanProblem[] = [];
  if (provider.status !== "available") {
    problems.push({
      field: "provider_id",
      message: `${provider.name} is ${provider.status === "maintenance" ? "under maintenance" : "unavailable"}; choose another provider or try later`,
    });
  }
  if (!provider.supported_experiment_types.includes(plan.experiment_type)) {
    problems.push({
      field: "experiment_type",
      message: `${plan.experiment_type} is not run by ${provider.name} (it runs ${provider.supported_experiment_types.join(", ")})`,
    });
  }
  if (BSL_RANK[plan.bsl] > BSL_RANK[provider.max_bsl]) {
    problems.push({
      field: "compliance.bsl",
      message: `${plan.bsl} work is above what ${provider.name} accepts (${provider.max_bsl} at most)`,
    });
  }
  if (plan.experiment_type === "CELL_VIABILITY_IC50") {
    const stocked = provider.capabilities.cell_lines;
    if (!stocked.some((line) => cellLineKey(line) === cellLineKey(plan.cell_line))) {
      problems.push({
        field: "cell_viability.cell_line",
        message:
          stocked.length === 0
            ? `${provider.name} keeps no cell lines`
            : `${plan.cell_line} is not stocked by ${provider.name} (stocked: ${stocked.join(", ")})`,
      });
    }
  }
  if (!provider.capabilities.plate_formats.includes(plan.plate_format)) {
    problems.push({
      field: plateField(plan),
      message: `${plan.plate_format} plates are not available at ${provider.name} (available: ${provider.capabilities.plate_formats.join(", ")})`,
    });
  }
  if (!provider.capabilities.detection_methods.includes(plan.detection_method)) {
    problems.push({
      field: detectionField(plan),
      message: `${plan.detection_method} read-out is not available at ${provider.name} (available: ${provider.capabilities.detection_methods.join(", ")})`,
    });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Assay warnings
// ---------------------------------------------------------------------------------------------

const MUELLER_HINTON = /m(u|ü|ue)ller[\s-]*hinton|\bca-?mhb\b|\bmhb\b|\bmha\b/i;
const QC_STRAINS =
  "E. coli ATCC 25922, S. aureus ATCC 29213, P. aeruginosa ATCC 27853 or E. faecalis ATCC 29212";

/** A number for a message: at most 3 significant figures, no exponent noise. */
const fmt = (value: number) => String(Number(value.toPrecision(3)));

function ratios(descending: readonly number[]): number[] {
  return descending.slice(1).map((value, i) => (descending[i] as number) / value);
}

function micWarnings(plan: Extract<LabPlan, { experiment_type: "MIC_MBC_ASSAY" }>): string[] {
  const out: string[] = [];
  for (const compound of plan.compounds) {
    const n = compound.concentrations_ug_ml.length;
    if (n < 3) {
      out.push(
        `MIC-N: ${compound.name}: ${n} concentration${n === 1 ? "" : "s"}; at least 3 are needed to bracket a MIC and 8 are recommended`,
      );
    } else if (n < 8) {
      out.push(`MIC-N: ${compound.name}: ${n} concentrations; at least 8 are recommended`);
    }
    const steps = ratios(compound.concentrations_ug_ml);
    if (steps.some((step) => Math.abs(step / 2 - 1) > 0.05)) {
      out.push(
        `MIC-DIL: ${compound.name}: the concentrations are not a two-fold series; CLSI M07 uses two-fold dilutions`,
      );
    }
  }
  if (plan.inoculum_cfu_ml < 2e5 || plan.inoculum_cfu_ml > 8e5) {
    out.push(
      `MIC-INOC: a final inoculum of ${fmt(plan.inoculum_cfu_ml)} CFU/mL is outside about 2-8 x 10^5 CFU/mL (target 5 x 10^5)`,
    );
  }
  if (plan.temperature_c < 33 || plan.temperature_c > 37) {
    out.push(`MIC-TEMP: ${fmt(plan.temperature_c)} °C is outside 35 ± 2 °C`);
  }
  if (plan.incubation_hours < 16 || plan.incubation_hours > 24) {
    out.push(
      `MIC-TIME: ${fmt(plan.incubation_hours)} h is outside 16-24 h (16-20 h for non-fastidious aerobes, 24 h for some drug/organism pairs)`,
    );
  }
  if (!MUELLER_HINTON.test(plan.medium)) {
    out.push(
      `MIC-MED: "${plan.medium}" is not Mueller-Hinton broth; CLSI M07 uses cation-adjusted Mueller-Hinton broth for non-fastidious organisms`,
    );
  }
  if (plan.positive_control === null) {
    out.push(
      `MIC-CTRL: no reference antibiotic stated; add a QC strain with a reference drug (${QC_STRAINS})`,
    );
  }
  return out;
}

function zoneWarnings(plan: Extract<LabPlan, { experiment_type: "ZONE_OF_INHIBITION" }>): string[] {
  const out: string[] = [];
  if (!MUELLER_HINTON.test(plan.medium)) {
    out.push(`ZONE-MED: "${plan.medium}" is not Mueller-Hinton agar, the CLSI M02 medium`);
  }
  if (plan.temperature_c < 33 || plan.temperature_c > 37) {
    out.push(`ZONE-TEMP: ${fmt(plan.temperature_c)} °C is outside 35 ± 2 °C`);
  }
  if (plan.incubation_hours < 16 || plan.incubation_hours > 18) {
    out.push(`ZONE-TIME: ${fmt(plan.incubation_hours)} h is outside 16-18 h`);
  }
  return out;
}

function ic50Warnings(
  concentrations: readonly number[],
  replicates: LabPlan["replicates"],
  positiveControl: string | null,
  controlKind: string,
): string[] {
  const out: string[] = [];
  const n = concentrations.length;
  if (n < 5) {
    out.push(
      `IC50-N: ${n} concentration${n === 1 ? "" : "s"}; fewer than 5 cannot define the curve and at least 8 are recommended`,
    );
  } else if (n < 8) {
    out.push(`IC50-N: ${n} concentrations; at least 8 are recommended`);
  }
  if (n >= 2) {
    const span = Math.log10((concentrations[0] as number) / (concentrations[n - 1] as number));
    if (span < 3 - 1e-9) {
      out.push(
        `IC50-N: the doses span ${fmt(span)} log units; at least 3 are recommended so both plateaus are defined`,
      );
    }
    const widest = Math.max(...ratios(concentrations));
    // Tolerance so the 1-3-10 half-log grid (steps of 3 and 3.33) counts as half-log.
    if (widest > Math.sqrt(10) * 1.1) {
      out.push(`IC50-N: steps of up to ${fmt(widest)}-fold; half-log or 2-3-fold spacing is recommended`);
    }
  }
  if (replicates.technical < 3) {
    out.push(
      `IC50-REP: ${replicates.technical} technical replicate${replicates.technical === 1 ? "" : "s"}; triplicates are recommended`,
    );
  }
  if (replicates.biological < 2) {
    out.push("IC50-REP: one independent run; 2-3 independent runs are recommended for a reported IC50");
  }
  if (positiveControl === null) {
    out.push(
      `IC50-CTRL: no positive control stated; add a ${controlKind} (100 % effect) next to the vehicle (0 %) and blank wells`,
    );
  }
  return out;
}

function qpcrWarnings(plan: Extract<LabPlan, { experiment_type: "QPCR_EXPRESSION" }>): string[] {
  const out: string[] = [];
  if (plan.reference_genes.length < 2) {
    out.push(
      "QPCR-REF: a single reference gene; at least 2 validated reference genes are recommended (MIQE)",
    );
  }
  if (plan.replicates.technical < 2) {
    out.push("QPCR-REP: no technical replicates; triplicates are recommended");
  }
  if (plan.replicates.biological < 3) {
    out.push(
      `QPCR-REP: ${plan.replicates.biological} biological replicate${plan.replicates.biological === 1 ? "" : "s"}; at least 3 are recommended`,
    );
  }
  return out;
}

function sangerWarnings(
  plan: Extract<LabPlan, { experiment_type: "SANGER_PLASMID_VERIFICATION" }>,
): string[] {
  const out: string[] = [];
  if (plan.primers.length < 2) {
    out.push(
      "SANGER-STRANDS: one primer reads one strand; reads of both strands across the region of interest are recommended",
    );
  }
  if (
    plan.expected_insert_size_bp !== null &&
    plan.expected_insert_size_bp > 800 &&
    plan.primers.length < 3
  ) {
    out.push(
      `SANGER-PRIMERS: a ${plan.expected_insert_size_bp} bp insert is longer than about 800 bp; add internal primers besides the flanking ones`,
    );
  }
  return out;
}

function growthWarnings(plan: Extract<LabPlan, { experiment_type: "MICROBIAL_GROWTH_MATRIX" }>): string[] {
  const out: string[] = [];
  if (plan.read_interval_minutes < 10 || plan.read_interval_minutes > 30) {
    out.push(
      `GROWTH-READ: reads every ${fmt(plan.read_interval_minutes)} min; kinetic OD600 reads every 10-30 min are recommended`,
    );
  }
  if (plan.replicates.technical < 3) {
    out.push(
      `GROWTH-REP: ${plan.replicates.technical} replicate well${plan.replicates.technical === 1 ? "" : "s"} per condition; at least 3 are recommended`,
    );
  }
  return out;
}

/** Assay-science warnings for a plan (never errors: the plan stays runnable). */
export function assayWarnings(plan: LabPlan): string[] {
  switch (plan.experiment_type) {
    case "MIC_MBC_ASSAY":
      return micWarnings(plan);
    case "ZONE_OF_INHIBITION":
      return zoneWarnings(plan);
    case "CELL_VIABILITY_IC50":
      return ic50Warnings(
        plan.compound.concentrations_um,
        plan.replicates,
        plan.positive_control,
        "kill control",
      );
    case "ENZYME_INHIBITION_IC50":
      return ic50Warnings(
        plan.inhibitor.concentrations_um,
        plan.replicates,
        plan.positive_control,
        "reference inhibitor",
      );
    case "QPCR_EXPRESSION":
      return qpcrWarnings(plan);
    case "SANGER_PLASMID_VERIFICATION":
      return sangerWarnings(plan);
    case "MICROBIAL_GROWTH_MATRIX":
      return growthWarnings(plan);
    case "CUSTOM":
      return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Cost
// ---------------------------------------------------------------------------------------------

export interface CostEstimate {
  estimated_cost_usd: number;
  estimated_turnaround_days: { min: number; max: number };
}

const toCents = (usd: number) => Math.round(usd * 100);

/** base + per_sample x sample_count, computed in cents so the result has exactly 2 decimals. */
export function estimateCost(plan: LabPlan, provider: CloudLabProvider): CostEstimate {
  const cents =
    toCents(provider.pricing.base_cost_usd) + toCents(provider.pricing.per_sample_usd) * plan.sample_count;
  return {
    estimated_cost_usd: cents / 100,
    estimated_turnaround_days: { ...provider.turnaround_days },
  };
}
