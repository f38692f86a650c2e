/** Operators as messages (petri.marketplace.v1.Operator). */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Operator, OperatorSchema } from "@petri/contracts/marketplace";
import type { OperatorView } from "../app/operator-view.js";

export function operatorMessage(view: OperatorView): Operator {
  const { operator, activeJobs } = view;
  const { quality } = operator;
  return create(OperatorSchema, {
    id: operator.id,
    accountId: operator.accountId,
    status: operator.status,
    profileJson: JSON.stringify(operator.profile),
    verificationJson: operator.verification === null ? "" : JSON.stringify(operator.verification),
    statusReason: operator.statusReason ?? "",
    quality: {
      onTimeRate: quality.on_time_rate,
      rerunRate: quality.rerun_rate,
      disputeRate: quality.dispute_rate,
      averageRating: quality.average_rating ?? 0,
      totalJobsCompleted: quality.total_jobs_completed,
      ratingsCount: quality.ratings_count,
    },
    activeJobs,
    labName: operator.labName,
    version: BigInt(operator.version),
    createdAt: timestampFromDate(operator.createdAt),
    updatedAt: timestampFromDate(operator.updatedAt),
  });
}
