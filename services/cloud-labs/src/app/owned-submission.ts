import { NotFoundError, type Principal } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findSubmission } from "../db/submissions.js";
import type { CloudLabsDb, SubmissionRow } from "../db/schema.js";

/** The caller's submission `id`; 404 when it does not exist or is another account's. */
export async function ownedSubmission(
  db: Kysely<CloudLabsDb>,
  principal: Principal,
  id: string,
): Promise<SubmissionRow> {
  const row = await findSubmission(db, id);
  if (!row || row.owner_account_id !== principal.accountId) throw new NotFoundError("submission", id);
  return row;
}
