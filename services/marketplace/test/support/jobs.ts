/** Test fixtures (not shipped behaviour): stored job requirements and job records. */
import type { JobRecord } from "../../src/domain/jobs/projection.js";
import type { StoredJobRequirements } from "../../src/domain/jobs/requirements.js";

export function storedRequirements(overrides: Partial<StoredJobRequirements> = {}): StoredJobRequirements {
  return {
    experiment_type: "QPCR_EXPRESSION",
    bsl_level: "BSL-1",
    needs_human_samples_approval: false,
    needs_animal_samples_approval: false,
    needs_hazardous_chemicals_approval: false,
    equipment_required: [],
    budget_cents: 100_000,
    deadline: "",
    priority: "standard",
    desired_turnaround_days: 14,
    menu_tags: [],
    custom_protocol: false,
    category: "molecular_biology",
    privacy: "open",
    ...overrides,
  };
}

export function jobRecord(overrides: Partial<JobRecord> = {}): JobRecord {
  return {
    experimentId: "exp_1",
    status: "open",
    requesterAccountId: "usr_requester",
    title: "Expression of GENE1 under drug X",
    requirements: storedRequirements(),
    operatorId: null,
    version: 1,
    postedAt: new Date("2026-11-20T09:00:00Z"),
    ...overrides,
  };
}
