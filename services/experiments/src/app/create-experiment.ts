import type { UnitOfWork } from "@petri/events";
import { type JsonValue, completeIdempotent } from "@petri/db";
import { type Clock, ConflictError, type Principal, ValidationError, isId, newId } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { ExperimentStatusName } from "@petri/contracts/vocabulary";
import { type ExperimentRecord, newRecord } from "../db/experiment-records.js";
import { type ExperimentValues, insertExperiment } from "../db/experiments.js";
import type { EstimateRecord } from "../db/estimate-records.js";
import { claimUnexpiredKey, completedFor } from "../db/idempotency-keys.js";
import type { ExperimentsDb } from "../db/schema.js";
import type { RequestWarning } from "../domain/contracts.js";
import {
  IdempotencyKeyReusedError,
  idempotencyCutoff,
  idempotencyKeyProblem,
  requestHash,
} from "../domain/idempotency.js";
import type { JsonObject } from "../domain/lifecycle/protocol-design.js";
import { submissionStatus } from "../domain/lifecycle/transitions.js";
import { recordDrafted, recordSubmitted } from "./experiment-events.js";
import { type AcceptedIntake, acceptIntake, parseJsonText } from "./intake.js";
import { estimateColumns, priceRequest } from "./pricing.js";
import {
  type CheckWebhookRegistration,
  CheckedWebhookUrl,
  webhookUrlOf,
  withCheckedWebhookUrl,
} from "./webhook-registration.js";

export interface CreateExperimentDeps {
  db: Kysely<ExperimentsDb>;
  clock: Clock;
  unitOfWork: UnitOfWork<ExperimentsDb>;
  /** Resolves and checks a webhook URL (webhook-registration.ts); called before the transaction. */
  checkWebhookUrl: CheckWebhookRegistration;
  /**
   * The response stored under the Idempotency-Key, for a replay to answer with; its shape is
   * the RPC layer's, which also reads it back (a replay returns it as stored).
   */
  storedResponseOf(created: CreatedExperiment): JsonValue;
}

export interface CreatedExperiment {
  experiment: ExperimentRecord;
  warnings: RequestWarning[];
}

/** A new experiment, or the response stored for an earlier request with the same key and body. */
export type CreateExperimentOutcome =
  ({ kind: "created" } & CreatedExperiment) | { kind: "replayed"; storedResponse: JsonValue | null };

export interface CreateExperimentInput {
  /** The request body as sent (JSON text). */
  requestJson: string;
  /** Save an incomplete request as a draft (submitted later with SubmitDraft). */
  saveAsDraft: boolean;
  /** The Idempotency-Key header; "" when none was sent. */
  idempotencyKey: string;
  /** The caller's library hypothesis the request was built from; "" or absent for none. */
  sourceHypothesisId?: string;
}

/** A hypothesis id shape check: the id is only recorded and echoed, never looked up here. */
function sourceHypothesisOf(id: string | undefined): string | undefined {
  if (id === undefined || id === "") return undefined;
  if (!isId("hyp", id))
    throw new ValidationError("the source hypothesis id is invalid", [
      { field: "source_hypothesis_id", code: "invalid_value", message: "not a hypothesis id" },
    ]);
  return id;
}

/** The HTTP status a stored response is replayed with (201 Created). */
const CREATED = 201;

/**
 * POST /experiments. First, outside any transaction, the webhook URL (if the request names
 * one and is not a draft) is resolved and checked (webhook-registration.ts: refused -> 422
 * invalid_webhook_url on communication_preferences.webhook_url, unresolved -> a warning).
 * Then in ONE transaction: claim the idempotency key (if any), validate, price (with operator
 * availability from the operator_eligibility projection), insert, record
 * ExperimentSubmitted (+ ExperimentOpened when open; ExperimentDrafted for a draft) and store the
 * response under the key.
 *
 * Status: draft when saveAsDraft; else pending_review when the validation named review
 * reasons, else open. The hold is the typical estimate in cents (0 for a draft).
 *
 * Idempotency (Stripe semantics, scoped per account, kept 24 h after completion):
 * - same key, same body (and draft flag) -> the stored response, replayed=true;
 * - same key, another body -> 422 idempotency_key_reused;
 * - a duplicate while the first is executing -> on PostgreSQL it waits for the first
 *   transaction (the key's row is locked by its insert) and then replays it; a key that is
 *   committed but not completed -> 409 idempotency_request_in_progress (retryable);
 * - a refused request (422/403) stores nothing: the key is free again;
 * - a replay does not resolve the webhook URL again: a key already completed for this body
 *   skips the check, and should the transaction find it gone after all (expired or purged
 *   in between) and claim the key anew, it rolls back, checks and runs again.
 */
export function makeCreateExperiment(deps: CreateExperimentDeps) {
  return async function createExperiment(
    principal: Principal,
    input: CreateExperimentInput,
  ): Promise<CreateExperimentOutcome> {
    const creation = creationOf(principal, input, deps.clock.now());
    const { ref, hash, url, now } = creation;
    const replayLikely =
      url !== undefined && ref.key !== "" && (await completedFor(deps.db, ref, hash, idempotencyCutoff(now)));

    return withCheckedWebhookUrl(
      deps.checkWebhookUrl,
      replayLikely ? CheckedWebhookUrl.unchecked : url,
      (checked) => deps.unitOfWork.run((trx) => createInTransaction(deps, trx, creation, checked)),
    );
  };
}

/** One POST /experiments as read before any I/O: checked once, even when the transaction reruns. */
interface Creation {
  principal: Principal;
  input: CreateExperimentInput;
  body: unknown;
  /** The Idempotency-Key scoped to the caller; key "" when none was sent. */
  ref: { principal: string; key: string };
  hash: string;
  /** The webhook URL to register; undefined for a draft or a request naming none. */
  url: string | undefined;
  source: string | undefined;
  now: Date;
}

function creationOf(principal: Principal, input: CreateExperimentInput, now: Date): Creation {
  const key = input.idempotencyKey;
  if (key !== "") {
    const problem = idempotencyKeyProblem(key);
    if (problem) throw new ValidationError("the Idempotency-Key is invalid", [problem]);
  }
  const body = parseJsonText(input.requestJson);
  const source = sourceHypothesisOf(input.sourceHypothesisId);
  return {
    principal,
    input,
    body,
    ref: { principal: principal.accountId, key },
    hash: requestHash(body, input.saveAsDraft, source),
    // Drafts are not registered: their URL is checked when they are submitted.
    url: input.saveAsDraft ? undefined : webhookUrlOf(body),
    source,
    now,
  };
}

/** The transaction of makeCreateExperiment: claim the key, validate, price, insert, record, complete. */
async function createInTransaction(
  deps: CreateExperimentDeps,
  trx: Kysely<ExperimentsDb>,
  creation: Creation,
  checked: CheckedWebhookUrl,
): Promise<CreateExperimentOutcome> {
  const { input, body, ref, now } = creation;
  if (ref.key !== "") {
    const replay = await claimKey(trx, creation);
    if (replay) return replay;
  }

  const intake = acceptIntake(
    body,
    input.saveAsDraft ? "draft" : "submit",
    now,
    checked.verdictFor(creation.url),
  );
  const estimate = await priceRequest(trx, intake.request, now);
  const status = input.saveAsDraft ? "draft" : submissionStatus(intake.reviewReasons);
  const row = await insertExperiment(trx, newExperimentValues(creation, intake, estimate, status));
  const record = newRecord(row);
  if (status === "draft") await recordDrafted(trx, record, now);
  else await recordSubmitted(trx, record, now);

  const created: CreatedExperiment = { experiment: record, warnings: intake.warnings };
  if (ref.key !== "")
    await completeIdempotent(trx, {
      ...ref,
      status: CREATED,
      body: deps.storedResponseOf(created),
      completedAt: now,
    });
  return { kind: "created", ...created };
}

/** Claims the Idempotency-Key; returns the replay when the key completed for this very request. */
async function claimKey(
  trx: Kysely<ExperimentsDb>,
  { ref, hash, now }: Creation,
): Promise<CreateExperimentOutcome | undefined> {
  const claim = await claimUnexpiredKey(trx, ref, hash, idempotencyCutoff(now));
  if (claim.kind === "replay") return { kind: "replayed", storedResponse: claim.body };
  if (claim.kind === "mismatch") throw new IdempotencyKeyReusedError();
  if (claim.kind === "in_progress")
    throw new ConflictError(
      "a request with this Idempotency-Key is still being processed; retry shortly",
      "idempotency_request_in_progress",
      { retryable: true },
    );
  return undefined;
}

/** The new experiment's row: nothing reviewed, claimed or cancelled yet; a draft holds nothing. */
function newExperimentValues(
  { principal, body, source, now }: Creation,
  intake: AcceptedIntake,
  estimate: EstimateRecord,
  status: ExperimentStatusName,
): ExperimentValues {
  return {
    id: newId("exp", now),
    requester_account_id: principal.accountId,
    status,
    experiment_type: intake.experimentType,
    title: intake.title,
    request: intake.request,
    raw_request: body as JsonObject,
    ...estimateColumns(estimate),
    hold_cents: status === "draft" ? 0 : estimate.cost_typical_cents,
    review_reasons: intake.reviewReasons,
    safety_flags: intake.safetyFlags,
    review_note: null,
    reviewed_by: null,
    reviewed_at: null,
    protocol_proposal: null,
    proposal_comments: [],
    operator_id: null,
    operator_lab_name: null,
    claimed_at: null,
    deadline: null,
    cancel_reason: null,
    refund_cents: null,
    operator_compensation_cents: null,
    refund_status: null,
    cancelled_by: null,
    cancelled_at: null,
    created_at: now,
    updated_at: now,
    submitted_at: status === "draft" ? null : now,
    source_hypothesis_id: source ?? null,
  };
}
