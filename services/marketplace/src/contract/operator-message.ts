/**
 * Operators as messages (petri.marketplace.v1.Operator). The profile and the verification record
 * travel typed (`profile`, `verification`) and, while a gateway built before may run, as JSON text
 * too (decisions.md D336). Every stored document was validated by the domain before it was
 * stored, so it fits its message; one that does not (a row older than a rule) travels as JSON
 * text only. Not exactRestMessage as the results (D342): the profile comes back from a jsonb
 * column with its keys in jsonb's order, never the message's, so no profile would travel typed
 * (D346).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type Operator,
  OperatorProfileSchema,
  OperatorSchema,
  VerificationRecordSchema,
} from "@petri/contracts/marketplace";
import { fittingRestMessage } from "@petri/contracts/rest-json";
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
    profile: fittingRestMessage(OperatorProfileSchema, operator.profile),
    verification:
      operator.verification === null
        ? undefined
        : fittingRestMessage(VerificationRecordSchema, operator.verification),
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
