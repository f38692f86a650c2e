/**
 * The requests the end-to-end scenarios and the benchmark send: a standard MIC assay request
 * and a lab profile with the verification record that makes it eligible for that request.
 * One definition, so a change to the request model is made once.
 */

/** A complete MIC request that needs no staff review: it opens at once. */
export function micRequest(title = "MIC of ampicillin against E. coli ATCC 25922") {
  return {
    experiment_type: "MIC_MBC_ASSAY",
    title,
    hypothesis: {
      statement: "Ampicillin inhibits growth of E. coli ATCC 25922 at a concentration of 8 ug/mL or lower",
      null_hypothesis: "The MIC of ampicillin against E. coli ATCC 25922 is above 8 ug/mL",
      rationale: "Establishes a susceptibility baseline for the reference strain",
    },
    compliance: { bsl: "BSL1" },
    privacy: "open",
    turnaround_budget: {
      budget_max_usd: 2000,
      desired_turnaround_days: 30,
      budget_flexibility: "flexible_10",
    },
    mic_mbc: {
      organism: "Escherichia coli",
      strain: "ATCC 25922",
      organism_source: "ATCC",
      medium: "Mueller-Hinton broth",
      compound_name: "ampicillin",
      concentration_range: { min: 0.25, max: 128, unit: "ug/mL", dilution_series: "2-fold" },
      inoculum_cfu_ml: 500000,
      incubation_hours: 18,
      incubation_temperature_c: 35,
      positive_control_antibiotic: "gentamicin",
      method: "broth_microdilution",
    },
    replicates: { technical: 3, biological: 3 },
    acceptance_criteria: {
      success_conditions: [
        { metric: "mic", operator: "lte", threshold: 8, unit: "ug/mL", description: "MIC at most 8 ug/mL" },
      ],
      statistical_requirements: { significance_level: 0.05 },
    },
    communication_preferences: { notification_events: ["claimed", "completed"] },
  };
}

export function operatorProfile(labName: string) {
  return {
    identity: { type: "academic_core", display_name: labName, region: "US", timezone: "UTC" },
    capabilities: {
      experiment_types: ["MIC_MBC_ASSAY"],
      menu_tags: ["mic_broth_microdilution"],
      instruments: [
        { name: "Plate reader", manufacturer: "BioTek", model: "Synergy H1", last_calibration: "2026-06-01" },
      ],
      equipment: ["Biosafety cabinet", "Incubator", "Plate reader"],
      custom_protocol_capable: false,
    },
    compliance: {
      max_bsl: "BSL2",
      human_samples_approved: false,
      animal_samples_approved: false,
      hazardous_chemicals_approved: false,
      institutional_approval_type: "core_facility_agreement",
    },
    commercial_terms: {
      pricing: { MIC_MBC_ASSAY: { min_usd: 300, typical_usd: 600, max_usd: 1500 } },
      turnaround_days: { MIC_MBC_ASSAY: { standard_days: 7, expedited_days: 4 } },
      minimum_order_usd: 0,
    },
    availability: { current_capacity: "high", max_concurrent_jobs: 5, vacations: [] },
  };
}

export function verificationRecord() {
  return {
    identity_verified: true,
    institution_verified: true,
    supervisor_approved: true,
    competencies_verified: ["MIC_MBC_ASSAY"],
    equipment_verified: true,
    max_bsl: "BSL-2",
    material_approvals: { human_samples: false, animal_samples: false, hazardous_chemicals: false },
    last_verification_date: "2026-11-01",
  };
}
