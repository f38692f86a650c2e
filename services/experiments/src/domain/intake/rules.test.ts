import { describe, expect, it } from "vitest";

import { specialRequests } from "@petri/fixtures";
import { WARNING_RULES } from "./rules/index.js";
import { full, minimal, run, type Json } from "../../../test/support/intake.js";

interface Case {
  code: string;
  /** A request on which the rule fires (path checked when given). */
  fires: () => Json;
  path?: string;
  /** A close variant on which it does not fire. */
  quiet: () => Json;
  mode?: "submit" | "draft";
}

const edit = (base: Json, change: (r: Json) => void): Json => {
  change(base);
  return base;
};

const CASES: Case[] = [
  {
    code: "low_replicates",
    fires: () => edit(full("MIC_MBC_ASSAY"), (r) => (r.replicates = { technical: 2, biological: 3 })),
    path: "replicates.technical",
    quiet: () => edit(full("MIC_MBC_ASSAY"), (r) => (r.replicates = { technical: 3, biological: 1 })),
  },
  {
    code: "low_replicates",
    fires: () =>
      edit(
        full("MIC_MBC_ASSAY"),
        (r) => (r.replicates = { technical_replicates: 3, biological_replicates: 0 }),
      ),
    path: "replicates.biological_replicates",
    quiet: () => full("MIC_MBC_ASSAY"),
  },
  {
    code: "budget.below_typical_range",
    fires: () => edit(full("MIC_MBC_ASSAY"), (r) => (r.turnaround_budget.budget_max_usd = 150)),
    path: "turnaround_budget.budget_max_usd",
    quiet: () => edit(full("MIC_MBC_ASSAY"), (r) => (r.turnaround_budget.budget_max_usd = 200)),
  },
  {
    code: "budget.above_typical_range",
    fires: () => edit(minimal("MIC_MBC_ASSAY"), (r) => (r.constraints.budget_max_usd = 401)),
    path: "constraints.budget_max_usd",
    quiet: () => edit(minimal("CUSTOM"), (r) => (r.turnaround_budget.budget_max_usd = 90_000)),
  },
  {
    code: "acceptance.no_success_conditions",
    fires: () => edit(full("ZONE_OF_INHIBITION"), (r) => delete r.acceptance_criteria),
    quiet: () => full("ZONE_OF_INHIBITION"),
  },
  {
    code: "turnaround.deadline_before_turnaround",
    fires: () => edit(full("ZONE_OF_INHIBITION"), (r) => (r.turnaround_budget.hard_deadline = "2026-12-01")),
    quiet: () => edit(full("ZONE_OF_INHIBITION"), (r) => (r.turnaround_budget.hard_deadline = "2026-12-12")),
  },
  {
    code: "turnaround.deadline_in_past",
    mode: "draft",
    fires: () => edit(full("ZONE_OF_INHIBITION"), (r) => (r.turnaround_budget.hard_deadline = "2026-01-01")),
    quiet: () => full("ZONE_OF_INHIBITION"),
  },
  {
    code: "compliance.hazardous_material_undeclared",
    fires: () => edit(full("MIC_MBC_ASSAY"), (r) => (r.materials_provided[0].hazardous = true)),
    path: "materials_provided[0].hazardous",
    quiet: () =>
      edit(full("MIC_MBC_ASSAY"), (r) => {
        r.materials_provided[0].hazardous = true;
        r.compliance = { bsl: "BSL-2", hazardous_chemicals: true, sds_attached: true };
      }),
  },
  {
    code: "compliance.sds_missing",
    fires: () =>
      edit(full("MIC_MBC_ASSAY"), (r) => (r.compliance = { bsl: "BSL-2", hazardous_chemicals: true })),
    quiet: () =>
      edit(
        full("MIC_MBC_ASSAY"),
        (r) => (r.compliance = { bsl: "BSL-2", hazardous_chemicals: true, sds_attached: true }),
      ),
  },
  {
    code: "metadata.agent_identifier_missing",
    fires: () => edit(full("MIC_MBC_ASSAY"), (r) => delete r.metadata.agent_identifier),
    quiet: () =>
      edit(full("MIC_MBC_ASSAY"), (r) => {
        delete r.metadata.agent_identifier;
        r.metadata.submitter_type = "human";
      }),
  },
  // MIC (CLSI M07) -----------------------------------------------------------------------------
  {
    code: "mic.concentration_count",
    fires: () =>
      edit(
        full("MIC_MBC_ASSAY"),
        (r) =>
          (r.mic_mbc.concentration_range = { min: 1, max: 64, unit: "µg/mL", dilution_series: "2-fold" }),
      ),
    path: "mic_mbc.concentration_range",
    quiet: () =>
      edit(
        full("MIC_MBC_ASSAY"),
        (r) =>
          (r.mic_mbc.concentration_range = { min: 0.5, max: 64, unit: "µg/mL", dilution_series: "2-fold" }),
      ),
  },
  {
    code: "mic.concentration_count",
    fires: () =>
      edit(
        structuredClone(specialRequests.micCloudLab) as Json,
        (r) => (r.mic_mbc_assay.test_compounds[1].concentrations_ug_ml = [1, 2, 4]),
      ),
    path: "mic_mbc_assay.test_compounds[1].concentrations_ug_ml",
    quiet: () => structuredClone(specialRequests.micCloudLab) as Json,
  },
  {
    code: "mic.dilution_series",
    fires: () =>
      edit(full("MIC_MBC_ASSAY"), (r) => (r.mic_mbc.concentration_range.dilution_series = "custom")),
    path: "mic_mbc.concentration_range.dilution_series",
    quiet: () => full("MIC_MBC_ASSAY"),
  },
  {
    code: "mic.dilution_series",
    fires: () =>
      edit(
        structuredClone(specialRequests.micCloudLab) as Json,
        (r) => (r.mic_mbc_assay.test_compounds[0].concentrations_ug_ml = [1, 3, 9, 27, 81, 243, 729, 2187]),
      ),
    quiet: () => structuredClone(specialRequests.micCloudLab) as Json,
  },
  {
    code: "mic.inoculum_density",
    fires: () => edit(full("MIC_MBC_ASSAY"), (r) => (r.mic_mbc.inoculum_cfu_ml = 1e6)),
    path: "mic_mbc.inoculum_cfu_ml",
    quiet: () => edit(full("MIC_MBC_ASSAY"), (r) => (r.mic_mbc.inoculum_cfu_ml = 8e5)),
  },
  {
    code: "mic.inoculum_density",
    fires: () => edit(full("MIC_MBC_ASSAY"), (r) => delete r.mic_mbc.inoculum_cfu_ml),
    quiet: () => edit(full("MIC_MBC_ASSAY"), (r) => (r.mic_mbc.inoculum_cfu_ml = 2e5)),
  },
  {
    code: "mic.incubation_temperature",
    fires: () => edit(full("MIC_MBC_ASSAY"), (r) => (r.mic_mbc.incubation_temperature_c = 30)),
    quiet: () => edit(full("MIC_MBC_ASSAY"), (r) => delete r.mic_mbc.incubation_temperature_c),
  },
  {
    code: "mic.incubation_time",
    fires: () => edit(full("MIC_MBC_ASSAY"), (r) => (r.mic_mbc.incubation_hours = 48)),
    quiet: () => edit(full("MIC_MBC_ASSAY"), (r) => (r.mic_mbc.incubation_hours = 24)),
  },
  {
    code: "mic.medium",
    fires: () => edit(full("MIC_MBC_ASSAY"), (r) => (r.mic_mbc.medium = "Tryptic soy broth")),
    quiet: () => edit(full("MIC_MBC_ASSAY"), (r) => (r.mic_mbc.medium = "CAMHB")),
  },
  {
    code: "mic.controls",
    fires: () => minimal("MIC_MBC_ASSAY"),
    path: "mic_mbc.positive_control_antibiotic",
    // Quiet when the request names a QC strain elsewhere (here: the acceptance criteria).
    quiet: () => edit(full("MIC_MBC_ASSAY"), (r) => delete r.mic_mbc.positive_control_antibiotic),
  },
  {
    code: "mic.controls",
    fires: () =>
      edit(
        structuredClone(specialRequests.micCloudLab) as Json,
        (r) => (r.mic_mbc_assay.target_organisms = ["E. coli K-12"]),
      ),
    path: "mic_mbc_assay",
    quiet: () => structuredClone(specialRequests.micCloudLab) as Json,
  },
  // Zone (CLSI M02) ----------------------------------------------------------------------------
  {
    code: "zone.medium",
    fires: () => edit(full("ZONE_OF_INHIBITION"), (r) => (r.zone_of_inhibition.medium = "LB agar")),
    quiet: () => full("ZONE_OF_INHIBITION"),
  },
  {
    code: "zone.incubation_temperature",
    fires: () =>
      edit(full("ZONE_OF_INHIBITION"), (r) => (r.zone_of_inhibition.incubation_temperature_c = 38)),
    quiet: () =>
      edit(full("ZONE_OF_INHIBITION"), (r) => (r.zone_of_inhibition.incubation_temperature_c = 33)),
  },
  {
    code: "zone.incubation_time",
    fires: () => edit(full("ZONE_OF_INHIBITION"), (r) => (r.zone_of_inhibition.incubation_hours = 24)),
    quiet: () => edit(full("ZONE_OF_INHIBITION"), (r) => (r.zone_of_inhibition.incubation_hours = 16)),
  },
  {
    code: "zone.disk_loading",
    fires: () => edit(full("ZONE_OF_INHIBITION"), (r) => delete r.zone_of_inhibition.disk_loading),
    quiet: () => full("ZONE_OF_INHIBITION"),
  },
  {
    code: "zone.positive_control",
    fires: () => edit(full("ZONE_OF_INHIBITION"), (r) => delete r.zone_of_inhibition.positive_control),
    quiet: () => full("ZONE_OF_INHIBITION"),
  },
  // Dose-response ------------------------------------------------------------------------------
  {
    code: "ic50.dose_points",
    fires: () => edit(full("CELL_VIABILITY_IC50"), (r) => (r.cell_viability.dose_range.points = 6)),
    path: "cell_viability.dose_range.points",
    quiet: () => edit(full("CELL_VIABILITY_IC50"), (r) => (r.cell_viability.dose_range.points = 8)),
  },
  {
    code: "ic50.dose_points",
    fires: () =>
      edit(full("ENZYME_INHIBITION_IC50"), (r) => r.enzyme_inhibition.inhibitor_concentrations.splice(4)),
    path: "enzyme_inhibition.inhibitor_concentrations",
    quiet: () => full("ENZYME_INHIBITION_IC50"),
  },
  {
    code: "ic50.dose_span",
    fires: () =>
      edit(
        full("CELL_VIABILITY_IC50"),
        (r) =>
          (r.cell_viability.dose_range = {
            min: 100,
            max: 30000,
            unit: "nM",
            points: 10,
            dilution_series: "custom",
          }),
      ),
    quiet: () =>
      edit(
        full("CELL_VIABILITY_IC50"),
        (r) =>
          (r.cell_viability.dose_range = {
            min: 30,
            max: 30000,
            unit: "nM",
            points: 10,
            dilution_series: "2-fold",
          }),
      ),
  },
  {
    code: "ic50.dilution_spacing",
    fires: () =>
      edit(full("ENZYME_INHIBITION_IC50"), (r) => r.enzyme_inhibition.inhibitor_concentrations.splice(1, 1)),
    quiet: () => full("ENZYME_INHIBITION_IC50"),
  },
  {
    code: "ic50.range_excludes_expected",
    fires: () =>
      edit(full("CELL_VIABILITY_IC50"), (r) => (r.acceptance_criteria.success_conditions[0].threshold = 50)),
    path: "cell_viability.dose_range",
    quiet: () =>
      edit(full("CELL_VIABILITY_IC50"), (r) => (r.acceptance_criteria.success_conditions[0].threshold = 30)),
  },
  {
    code: "ic50.positive_control",
    fires: () =>
      edit(full("ENZYME_INHIBITION_IC50"), (r) => delete r.enzyme_inhibition.positive_control_inhibitor),
    path: "enzyme_inhibition.positive_control_inhibitor",
    quiet: () => full("ENZYME_INHIBITION_IC50"),
  },
  {
    code: "ic50.vehicle_control",
    fires: () => edit(full("CELL_VIABILITY_IC50"), (r) => (r.acceptance_criteria.failure_conditions = [])),
    quiet: () => full("CELL_VIABILITY_IC50"),
  },
  {
    code: "ic50.solvent_concentration",
    fires: () =>
      edit(
        full("CELL_VIABILITY_IC50"),
        (r) => (r.cell_viability.compound_stock_concentration = { value: 5, unit: "mM" }),
      ),
    quiet: () => edit(full("CELL_VIABILITY_IC50"), (r) => (r.cell_viability.solvent = "water")),
  },
  {
    code: "ic50.z_factor",
    fires: () => edit(full("CELL_VIABILITY_IC50"), (r) => (r.cell_viability.include_z_factor = false)),
    quiet: () => full("CELL_VIABILITY_IC50"),
  },
  {
    code: "ic50.independent_runs",
    fires: () => edit(full("CELL_VIABILITY_IC50"), (r) => (r.replicates.biological = 1)),
    quiet: () => edit(full("CELL_VIABILITY_IC50"), (r) => (r.replicates.biological = 2)),
  },
  {
    code: "enzyme.substrate_concentration",
    fires: () =>
      edit(full("ENZYME_INHIBITION_IC50"), (r) => delete r.enzyme_inhibition.substrate_concentration),
    quiet: () => full("ENZYME_INHIBITION_IC50"),
  },
  {
    code: "enzyme.pre_incubation",
    fires: () =>
      edit(full("ENZYME_INHIBITION_IC50"), (r) => delete r.enzyme_inhibition.incubation_time_minutes),
    quiet: () => full("ENZYME_INHIBITION_IC50"),
  },
  {
    code: "enzyme.tight_binding",
    fires: () =>
      edit(
        full("ENZYME_INHIBITION_IC50"),
        (r) => (r.enzyme_inhibition.enzyme_concentration = { value: 0.2, unit: "µM" }),
      ),
    quiet: () =>
      edit(
        full("ENZYME_INHIBITION_IC50"),
        (r) => (r.enzyme_inhibition.enzyme_concentration = { value: 0.05, unit: "µM" }),
      ),
  },
  // qPCR (MIQE) --------------------------------------------------------------------------------
  {
    code: "qpcr.reference_genes",
    fires: () => edit(full("QPCR_EXPRESSION"), (r) => (r.qpcr.housekeeping_genes = ["GAPDH"])),
    path: "qpcr.housekeeping_genes",
    quiet: () => full("QPCR_EXPRESSION"),
  },
  {
    code: "qpcr.no_template_control",
    fires: () => edit(full("QPCR_EXPRESSION"), (r) => r.acceptance_criteria.failure_conditions.splice(0, 1)),
    quiet: () => full("QPCR_EXPRESSION"),
  },
  {
    code: "qpcr.no_rt_control",
    fires: () => edit(full("QPCR_EXPRESSION"), (r) => r.acceptance_criteria.failure_conditions.splice(1, 1)),
    quiet: () =>
      edit(full("QPCR_EXPRESSION"), (r) => {
        r.acceptance_criteria.failure_conditions.splice(1, 1);
        r.qpcr.sample_type = "cDNA";
      }),
  },
  {
    code: "qpcr.efficiency",
    fires: () => edit(full("QPCR_EXPRESSION"), (r) => r.acceptance_criteria.success_conditions.splice(1, 1)),
    quiet: () => full("QPCR_EXPRESSION"),
  },
  {
    code: "qpcr.melt_curve",
    fires: () =>
      edit(full("QPCR_EXPRESSION"), (r) => (r.deliverables.required_processed_outputs = ["CT_TABLE"])),
    quiet: () =>
      edit(full("QPCR_EXPRESSION"), (r) => {
        r.deliverables.required_processed_outputs = ["CT_TABLE"];
        r.qpcr.chemistry = "TAQMAN";
      }),
  },
  {
    code: "qpcr.biological_replicates",
    fires: () => edit(full("QPCR_EXPRESSION"), (r) => (r.replicates.biological = 2)),
    quiet: () => full("QPCR_EXPRESSION"),
  },
  {
    code: "qpcr.primer_sequences",
    fires: () => edit(full("QPCR_EXPRESSION"), (r) => delete r.qpcr.targets[1].assay_id),
    path: "qpcr.targets[1]",
    quiet: () => full("QPCR_EXPRESSION"),
  },
  {
    code: "qpcr.rna_quality",
    fires: () => edit(full("QPCR_EXPRESSION"), (r) => (r.materials_provided[0].specification = "12 samples")),
    quiet: () => full("QPCR_EXPRESSION"),
  },
  // Sanger -------------------------------------------------------------------------------------
  {
    code: "sanger.primers",
    fires: () => edit(full("SANGER_PLASMID_VERIFICATION"), (r) => (r.sanger.primers = [])),
    quiet: () => full("SANGER_PLASMID_VERIFICATION"),
  },
  {
    code: "sanger.both_strands",
    fires: () => edit(full("SANGER_PLASMID_VERIFICATION"), (r) => r.sanger.primers.splice(1)),
    quiet: () => full("SANGER_PLASMID_VERIFICATION"),
  },
  {
    code: "sanger.insert_coverage",
    fires: () => edit(full("SANGER_PLASMID_VERIFICATION"), (r) => r.sanger.primers.splice(2)),
    quiet: () =>
      edit(full("SANGER_PLASMID_VERIFICATION"), (r) => {
        r.sanger.primers.splice(2);
        r.sanger.expected_insert_size_bp = 800;
      }),
  },
  {
    code: "sanger.reference_sequence",
    fires: () =>
      edit(full("SANGER_PLASMID_VERIFICATION"), (r) => (r.sanger.reference_sequence_attached = false)),
    quiet: () => full("SANGER_PLASMID_VERIFICATION"),
  },
  {
    code: "sanger.quality_threshold",
    fires: () =>
      edit(
        full("SANGER_PLASMID_VERIFICATION"),
        (r) => (r.acceptance_criteria.success_conditions[0].metric = "insert identity"),
      ),
    quiet: () =>
      edit(
        full("SANGER_PLASMID_VERIFICATION"),
        (r) => (r.acceptance_criteria.success_conditions[0].metric = "Phred quality"),
      ),
  },
  // Growth matrix ------------------------------------------------------------------------------
  {
    code: "growth.read_schedule",
    fires: () => edit(full("MICROBIAL_GROWTH_MATRIX"), (r) => delete r.microbial_growth.read_schedule),
    quiet: () =>
      edit(full("MICROBIAL_GROWTH_MATRIX"), (r) => {
        delete r.microbial_growth.read_schedule;
        r.microbial_growth.endpoint_only = true;
        r.deliverables.required_processed_outputs = ["QC_SUMMARY"];
      }),
  },
  {
    code: "growth.read_interval",
    fires: () =>
      edit(
        full("MICROBIAL_GROWTH_MATRIX"),
        (r) =>
          (r.microbial_growth.read_schedule = [0, 1, 2].map((t) => ({
            time_hours: t,
            measurement: "OD600",
          }))),
      ),
    quiet: () =>
      edit(
        full("MICROBIAL_GROWTH_MATRIX"),
        (r) =>
          (r.microbial_growth.read_schedule = [0, 0.5, 1].map((t) => ({
            time_hours: t,
            measurement: "OD600",
          }))),
      ),
  },
  {
    code: "growth.endpoint_only_kinetics",
    fires: () => edit(full("MICROBIAL_GROWTH_MATRIX"), (r) => (r.microbial_growth.endpoint_only = true)),
    quiet: () => full("MICROBIAL_GROWTH_MATRIX"),
  },
  {
    code: "growth.incubation_temperature",
    fires: () =>
      edit(full("MICROBIAL_GROWTH_MATRIX"), (r) => delete r.microbial_growth.incubation_temperature_c),
    quiet: () => full("MICROBIAL_GROWTH_MATRIX"),
  },
  {
    code: "growth.aeration",
    fires: () => edit(full("MICROBIAL_GROWTH_MATRIX"), (r) => delete r.microbial_growth.aeration),
    quiet: () => full("MICROBIAL_GROWTH_MATRIX"),
  },
  // Spellings of other marketplaces --------------------------------------------------------------
  {
    code: "request.alias_normalised",
    fires: () =>
      edit(full("QPCR_EXPRESSION"), (r) => {
        const stats = r.acceptance_criteria.statistical_requirements;
        stats.test = stats.statistical_test;
        delete stats.statistical_test;
      }),
    path: "acceptance_criteria.statistical_requirements.test",
    quiet: () => full("QPCR_EXPRESSION"),
  },
  // Custom protocol ----------------------------------------------------------------------------
  {
    code: "custom.step_duration",
    fires: () => edit(full("CUSTOM"), (r) => delete r.protocol.custom_protocol.steps[2].duration),
    path: "protocol.custom_protocol.steps",
    quiet: () => full("CUSTOM"),
  },
  {
    code: "custom.step_critical_parameters",
    fires: () => edit(full("CUSTOM"), (r) => delete r.protocol.custom_protocol.steps[3].critical_parameters),
    path: "protocol.custom_protocol.steps[3].critical_parameters",
    quiet: () => full("CUSTOM"),
  },
  {
    code: "custom.safety_notes",
    fires: () =>
      edit(full("CUSTOM"), (r) => {
        r.protocol.custom_protocol.safety_notes = [];
        r.compliance = { bsl: "BSL-2", hazardous_chemicals: true, sds_attached: true };
      }),
    quiet: () => edit(full("CUSTOM"), (r) => (r.protocol.custom_protocol.safety_notes = [])),
  },
  {
    code: "custom.description",
    fires: () => edit(full("CUSTOM"), (r) => delete r.protocol.custom_protocol.brief_description),
    quiet: () =>
      edit(full("CUSTOM"), (r) => {
        delete r.protocol.custom_protocol.brief_description;
        r.protocol.custom_protocol.protocol_attached = true;
      }),
  },
];

describe("warning rules", () => {
  it("every catalogued rule has a firing case, and every case is catalogued", () => {
    const catalogued = new Set(WARNING_RULES.map((r) => r.code));
    const tested = new Set(CASES.map((c) => c.code));
    expect([...catalogued].filter((code) => !tested.has(code))).toEqual([]);
    expect([...tested].filter((code) => !catalogued.has(code))).toEqual([]);
  });

  for (const [index, rule] of CASES.entries()) {
    it(`${rule.code} (#${index}) fires, with a message and a suggestion, and stays quiet on its variant`, () => {
      const mode = rule.mode ?? "submit";
      const fired = run(rule.fires(), mode);
      expect(fired.errors).toEqual([]);
      const found = fired.warnings.filter((w) => w.code === rule.code);
      expect(found.length).toBeGreaterThan(0);
      for (const w of found) {
        expect(w.message.length).toBeGreaterThan(10);
        expect(w.suggestion?.length ?? 0).toBeGreaterThan(10);
      }
      if (rule.path) expect(found.map((w) => w.path)).toContain(rule.path);
      const quiet = run(rule.quiet(), mode);
      expect(quiet.errors).toEqual([]);
      expect(quiet.warnings.filter((w) => w.code === rule.code)).toEqual([]);
    });
  }

  it("warnings never make a request invalid", () => {
    const result = run(minimal("ENZYME_INHIBITION_IC50"));
    expect(result.warnings.length).toBeGreaterThan(3);
    expect(result.valid).toBe(true);
  });

  it("names the dose count in the dose-points message and states the DMSO assumption", () => {
    const points = run(edit(full("CELL_VIABILITY_IC50"), (r) => (r.cell_viability.dose_range.points = 4)));
    expect(points.warnings.find((w) => w.code === "ic50.dose_points")?.message).toBe(
      "4 concentrations cannot define an IC50: both plateaus and the slope need more points.",
    );
    const dmso = run(
      edit(
        full("CELL_VIABILITY_IC50"),
        (r) => (r.cell_viability.compound_stock_concentration = { value: 2, unit: "mM" }),
      ),
    );
    expect(dmso.warnings.find((w) => w.code === "ic50.solvent_concentration")?.message).toBe(
      "Diluting the stock to the top dose gives about 1.5% DMSO (assuming the stock is in neat DMSO), above 1%.",
    );
  });

  it("counts a two-fold MIC range from min to max", () => {
    const result = run(
      edit(
        full("MIC_MBC_ASSAY"),
        (r) =>
          (r.mic_mbc.concentration_range = { min: 1, max: 32, unit: "µg/mL", dilution_series: "2-fold" }),
      ),
    );
    expect(result.warnings.find((w) => w.code === "mic.concentration_count")?.message).toContain(
      "6 concentrations",
    );
  });
});
