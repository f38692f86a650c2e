/** Test fixtures (not shipped behaviour): a valid profile input and an active, verified operator. */
import type { JobRequirements } from "../../src/domain/operators/job.js";
import type { Operator } from "../../src/domain/operators/operator.js";
import { validateOperatorProfile, type OperatorProfile } from "../../src/domain/operators/profile.js";
import type { VerificationRecord } from "../../src/domain/operators/verification.js";

export function profileInput(): Record<string, unknown> {
  return {
    identity: { type: "academic_core", display_name: "Core Lab", region: "US", timezone: "America/New_York" },
    capabilities: {
      experiment_types: ["QPCR_EXPRESSION", "MIC_MBC_ASSAY"],
      menu_tags: ["qpcr_taqman", "mic_broth_microdilution"],
      instruments: [
        { name: "QuantStudio 5", manufacturer: "Thermo", model: "QS5", last_calibration: "2026-06-01" },
      ],
      equipment: ["Biosafety Cabinet", "Plate Reader", "Incubator"],
      custom_protocol_capable: true,
    },
    compliance: {
      max_bsl: "BSL2",
      human_samples_approved: true,
      animal_samples_approved: false,
      hazardous_chemicals_approved: true,
      institutional_approval_type: "core_facility_agreement",
    },
    commercial_terms: {
      pricing: {
        QPCR_EXPRESSION: { min_usd: 400, typical_usd: 800, max_usd: 1500 },
        MIC_MBC_ASSAY: { min_usd: 300, typical_usd: 600, max_usd: 1200 },
      },
      turnaround_days: {
        QPCR_EXPRESSION: { standard_days: 10, expedited_days: 5 },
        MIC_MBC_ASSAY: { standard_days: 7, expedited_days: 4 },
      },
      minimum_order_usd: 0,
    },
    availability: {
      current_capacity: "high",
      max_concurrent_jobs: 3,
      vacations: [{ start: "2026-12-24", end: "2027-01-02" }],
    },
  };
}

export function validProfile(): OperatorProfile {
  const result = validateOperatorProfile(profileInput());
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

export function verification(overrides: Partial<VerificationRecord> = {}): VerificationRecord {
  return {
    identity_verified: true,
    institution_verified: true,
    supervisor_approved: true,
    competencies_verified: ["QPCR_EXPRESSION", "MIC_MBC_ASSAY"],
    equipment_verified: true,
    max_bsl: "BSL-2",
    material_approvals: { human_samples: true, animal_samples: false, hazardous_chemicals: true },
    last_verification_date: "2026-10-01",
    ...overrides,
  };
}

export function operator(overrides: Partial<Operator> = {}): Operator {
  return {
    id: "op-a",
    status: "active",
    profile: validProfile(),
    verification: verification(),
    quality: {
      on_time_rate: 0.9,
      rerun_rate: 0.05,
      dispute_rate: 0.02,
      average_rating: 4.5,
      total_jobs_completed: 20,
    },
    active_jobs: 0,
    ...overrides,
  };
}

export function job(overrides: Partial<JobRequirements> = {}): JobRequirements {
  return {
    experiment_type: "QPCR_EXPRESSION",
    bsl: "BSL-1",
    needs_human_samples_approval: false,
    needs_animal_samples_approval: false,
    needs_hazardous_chemicals_approval: false,
    equipment_required: [],
    budget_usd: 1000,
    desired_turnaround_days: 14,
    priority: "standard",
    ...overrides,
  };
}

/** A date in November 2026, outside the fixture's vacation. */
export const NOW = new Date("2026-11-21T12:00:00Z");
