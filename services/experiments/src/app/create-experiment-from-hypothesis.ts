import {
  NotFoundError,
  type Principal,
  type ReadModelArrivals,
  type ReadModelWait,
  isId,
  readSettled,
} from "@petri/service-kit";
import type { Kysely } from "kysely";
import { findHypothesisView } from "../db/hypothesis-views.js";
import type { ExperimentsDb } from "../db/schema.js";
import {
  type HypothesisView,
  assertConvertible,
  experimentRequestFor,
  mayConvert,
  parseAdditionalFields,
  toExperimentIdempotencyKey,
} from "../domain/from-hypothesis/index.js";
import type { CreateExperimentOutcome, makeCreateExperiment } from "./create-experiment.js";

export interface CreateFromHypothesisDeps {
  db: Kysely<ExperimentsDb>;
  arrivals: ReadModelArrivals;
  wait: ReadModelWait;
  /**
   * Whether the hypothesis_views consumer has applied every hypotheses event published so far
   * (no delivery pending or unacknowledged); true when the bus cannot tell.
   */
  viewCaughtUp: () => Promise<boolean>;
  /** POST /experiments' use case: the experiment is created exactly as it creates one. */
  createExperiment: ReturnType<typeof makeCreateExperiment>;
}

export interface CreateFromHypothesisInput {
  hypothesisId: string;
  /** A JSON object text merged over the request; "" for none. */
  additionalFieldsJson: string;
  /** The caller's Idempotency-Key; "" when none was sent. */
  idempotencyKey: string;
}

/**
 * POST /hypotheses/{id}/to-experiment in one call (D349). The hypothesis is read from this
 * service's hypothesis_views (never from a caller), waiting a bounded time for one saved a
 * moment ago or changed a moment ago (D325's wait, until the view's consumer has no event left
 * to apply); only its owner may use it (anyone else, and a hypothesis never heard
 * of: 404), an ARCHIVED one is 409. The request and its key are built as D108/D109 say, and the
 * experiment is created by CreateExperiment's use case with the hypothesis as its source, so a
 * retried call (same hypothesis, same additional fields, or the same Idempotency-Key) replays.
 */
export function makeCreateExperimentFromHypothesis(deps: CreateFromHypothesisDeps) {
  return async function createExperimentFromHypothesis(
    principal: Principal,
    input: CreateFromHypothesisInput,
  ): Promise<CreateExperimentOutcome> {
    const additionalFields = parseAdditionalFields(input.additionalFieldsJson);
    const hypothesis = await settledHypothesisView(deps, input.hypothesisId);
    if (!hypothesis || !mayConvert(principal.accountId, hypothesis))
      throw new NotFoundError("hypothesis", input.hypothesisId);
    assertConvertible(hypothesis);
    const request = experimentRequestFor(hypothesis, additionalFields);
    return deps.createExperiment(principal, {
      requestJson: JSON.stringify(request),
      saveAsDraft: false,
      idempotencyKey: toExperimentIdempotencyKey(hypothesis.id, input.idempotencyKey, request),
      sourceHypothesisId: hypothesis.id,
    });
  };
}

/**
 * The view of the hypothesis, waiting while it is unknown or while the view's consumer still has
 * hypotheses events to apply: its HypothesisSaved, or that of an edit or an archive made a moment
 * before, may not have been applied yet (the caller's own writes must show). Text that is no
 * hypothesis id can never arrive.
 */
async function settledHypothesisView(
  deps: Pick<CreateFromHypothesisDeps, "db" | "arrivals" | "wait" | "viewCaughtUp">,
  hypothesisId: string,
): Promise<HypothesisView | undefined> {
  if (!isId("hyp", hypothesisId)) return undefined;
  const read = await readSettled({
    key: hypothesisId,
    read: async () => {
      // The consumer first, then the view: a view read once the consumer was seen caught up holds
      // every event published before that; read the other way round, an event applied between
      // the two reads would count as applied while the view read missed it.
      const caughtUp = await deps.viewCaughtUp();
      const view = await findHypothesisView(deps.db, hypothesisId);
      return { view, caughtUp: view !== undefined && caughtUp };
    },
    settled: (state) => state !== undefined && state.caughtUp,
    arrivals: deps.arrivals,
    wait: deps.wait,
  });
  return read?.view;
}
