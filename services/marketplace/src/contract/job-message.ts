/** Jobs and lab matches as messages: only the Job fields, with the neutral title for private requests. */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Job, JobSchema, type LabMatch, LabMatchSchema } from "@petri/contracts/marketplace";
import type { RankedLab } from "../app/rank-labs.js";
import { type RankedJob, feedTitle, isPrivateJob } from "../domain/jobs/feed.js";
import { deadlineDate } from "../domain/jobs/requirements.js";
import type { MatchComponents } from "../domain/matching/score.js";

function componentsMessage(components: MatchComponents) {
  return {
    capability: components.capability,
    turnaround: components.turnaround,
    cost: components.cost,
    quality: components.quality,
  };
}

export function jobMessage(ranked: RankedJob): Job {
  const { job, match } = ranked;
  const r = job.requirements;
  return create(JobSchema, {
    experimentId: job.experimentId,
    title: feedTitle(job),
    category: r.category,
    budgetCents: BigInt(r.budget_cents),
    deadline: deadlineDate(r.deadline),
    bslLevel: r.bsl_level,
    equipmentRequired: r.equipment_required,
    postedAt: timestampFromDate(job.postedAt),
    experimentType: r.experiment_type,
    private: isPrivateJob(job),
    matchScore: match.score,
    match: componentsMessage(match.components),
    turnaroundPriority: r.priority,
  });
}

export function labMatchMessage(lab: RankedLab): LabMatch {
  return create(LabMatchSchema, {
    operatorId: lab.operatorId,
    labName: lab.labName,
    score: lab.match.score,
    components: componentsMessage(lab.match.components),
    eligible: lab.match.eligible,
    // Empty for eligible labs, the only ones a requester sees.
    failedFilters: lab.match.failed_filters.map((f) => f.filter),
  });
}
