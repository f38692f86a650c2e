import { ExperimentsService } from "@petri/contracts/experiments";
import { type ServiceDeps, createServiceRuntime } from "@petri/events";
import type { HostedService } from "@petri/service-kit";
import { makeAcceptProtocolProposal } from "./app/accept-protocol-proposal.js";
import { makeApproveReview } from "./app/approve-review.js";
import { makeCancelExperiment } from "./app/cancel-experiment.js";
import { makeCreateExperiment } from "./app/create-experiment.js";
import { makeEstimateExperiment } from "./app/estimate-experiment.js";
import { makeGetExperiment } from "./app/get-experiment.js";
import { makeGetTemplate } from "./app/get-template.js";
import { makeListExperiments } from "./app/list-experiments.js";
import { makeListReviewQueue } from "./app/list-review-queue.js";
import { makeListTemplates } from "./app/list-templates.js";
import { makeProposeProtocol } from "./app/propose-protocol.js";
import { makePurgeIdempotencyKeys } from "./app/purge-idempotency-keys.js";
import { makeRejectReview } from "./app/reject-review.js";
import { makeRequestProtocolChanges } from "./app/request-protocol-changes.js";
import { makeSubmitDraft } from "./app/submit-draft.js";
import { makeUpdateExperiment } from "./app/update-experiment.js";
import { makeValidateExperiment } from "./app/validate-experiment.js";
import { makeValidateHypothesis } from "./app/validate-hypothesis.js";
import { experimentsMigrations } from "./db/migrations/index.js";
import type { ExperimentsDb } from "./db/schema.js";
import { type ExperimentsUseCases, ExperimentsRpc } from "./rpc/experiments-rpc.js";

/** How often idempotency keys older than their 24 h retention are deleted. */
export const IDEMPOTENCY_PURGE_INTERVAL_MS = 10 * 60_000;

export interface ExperimentsHostedService extends HostedService {
  /** The use cases behind the RPCs, for tests and the host. */
  readonly useCases: ExperimentsUseCases;
  /** One housekeeping pass (also run every IDEMPOTENCY_PURGE_INTERVAL_MS while started). */
  purgeIdempotencyKeys(): Promise<number>;
}

/**
 * Composition root of the experiments service: the Experiment aggregate (requests, the
 * lifecycle, staff review and protocol design), validation, estimates and templates.
 */
export function createExperimentsService(deps: ServiceDeps): ExperimentsHostedService {
  const runtime = createServiceRuntime<ExperimentsDb>({
    ...deps,
    service: "experiments",
    migrations: experimentsMigrations,
  });
  const { db, afterCommit } = runtime;
  const { clock } = deps;
  const logger = deps.logger.child({ service: "experiments" });
  const changing = { db, clock, afterCommit };

  const useCases: ExperimentsUseCases = {
    createExperiment: makeCreateExperiment(changing),
    submitDraft: makeSubmitDraft(changing),
    getExperiment: makeGetExperiment({ db }),
    listExperiments: makeListExperiments({ db }),
    updateExperiment: makeUpdateExperiment(changing),
    cancelExperiment: makeCancelExperiment(changing),
    validateExperiment: makeValidateExperiment({ clock }),
    validateHypothesis: makeValidateHypothesis(),
    estimateExperiment: makeEstimateExperiment({ db }),
    listTemplates: makeListTemplates(),
    getTemplate: makeGetTemplate(),
    listReviewQueue: makeListReviewQueue({ db }),
    approveReview: makeApproveReview(changing),
    rejectReview: makeRejectReview(changing),
    proposeProtocol: makeProposeProtocol(changing),
    acceptProtocolProposal: makeAcceptProtocolProposal(changing),
    requestProtocolChanges: makeRequestProtocolChanges(changing),
  };
  const purgeIdempotencyKeys = makePurgeIdempotencyKeys({ db, clock });
  const rpc = new ExperimentsRpc(useCases);

  let housekeeping: { abort: AbortController; done: Promise<void> } | undefined;
  function startHousekeeping() {
    const abort = new AbortController();
    const done = (async () => {
      while (!abort.signal.aborted) {
        await clock.sleep(IDEMPOTENCY_PURGE_INTERVAL_MS, abort.signal);
        if (abort.signal.aborted) break;
        try {
          const purged = await purgeIdempotencyKeys();
          if (purged > 0) logger.debug({ purged }, "purged expired idempotency keys");
        } catch (error) {
          logger.warn({ err: error }, "experiments housekeeping failed; will retry");
        }
      }
    })();
    housekeeping = { abort, done };
  }

  return {
    ...runtime.hosted,
    useCases,
    purgeIdempotencyKeys,
    routes: (router) => router.service(ExperimentsService, rpc),
    async start() {
      await runtime.hosted.start();
      if (!housekeeping) startHousekeeping();
    },
    async stop() {
      if (housekeeping) {
        housekeeping.abort.abort();
        await housekeeping.done;
        housekeeping = undefined;
      }
      await runtime.hosted.stop();
    },
  };
}
