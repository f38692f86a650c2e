import { type FieldError, type Principal, ValidationError, parsePage } from "@petri/service-kit";
import { listSubmissions } from "../db/submissions.js";
import type { SubmissionRow } from "../db/schema.js";
import { SUBMISSION_STATUSES, isSubmissionStatus } from "../domain/submission.js";
import type { ReadingDeps } from "./deps.js";

/** GET /cloud-labs/submissions: the caller's, newest first, filtered by experiment, provider, status. */
export function makeListSubmissions(deps: ReadingDeps) {
  return async function listSubmissionsUseCase(
    principal: Principal,
    raw: { experimentId: string; providerId: string; status: string; limit: number; offset: number },
  ): Promise<{ submissions: SubmissionRow[]; total: number; limit: number; offset: number }> {
    const problems: FieldError[] = [];
    const status = raw.status.trim();
    if (status !== "" && !isSubmissionStatus(status))
      problems.push({
        field: "status",
        code: "invalid_value",
        message: `status must be one of ${SUBMISSION_STATUSES.join(", ")}`,
      });
    for (const [field, value] of [
      ["experiment_id", raw.experimentId],
      ["provider_id", raw.providerId],
    ] as const)
      if (value.length > 64)
        problems.push({ field, code: "invalid_value", message: `${field} is at most 64 characters` });
    if (problems.length > 0) throw new ValidationError("the listing request is invalid", problems);
    const page = parsePage({ limit: raw.limit, offset: raw.offset });
    const found = await listSubmissions(
      deps.db,
      principal.accountId,
      {
        experimentId: raw.experimentId.trim() || null,
        providerId: raw.providerId.trim() || null,
        status: isSubmissionStatus(status) ? status : null,
      },
      page,
    );
    return { ...found, ...page };
  };
}
