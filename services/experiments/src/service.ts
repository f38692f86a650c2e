import { streamFor } from "@petri/contracts";
import { ExperimentsService } from "@petri/contracts/experiments";
import { createUnitOfWork } from "@petri/events";
import { type ServiceDeps, createServiceRuntime } from "@petri/host";
import {
  type HostedService,
  READ_MODEL_WAIT,
  ReadModelArrivals,
  type ReadModelWait,
} from "@petri/service-kit";
import { makeAcceptProtocolProposal } from "./app/accept-protocol-proposal.js";
import { makeApproveResults } from "./app/approve-results.js";
import { makeApproveReview } from "./app/approve-review.js";
import { makeCancelExperiment } from "./app/cancel-experiment.js";
import { makeClaimExperiment } from "./app/claim-experiment.js";
import { makeCreateExperiment } from "./app/create-experiment.js";
import { makeCreateExperimentFromHypothesis } from "./app/create-experiment-from-hypothesis.js";
import { makeDisputeResults } from "./app/dispute-results.js";
import { makeEstimateExperiment } from "./app/estimate-experiment.js";
import { makeGetDispute } from "./app/get-dispute.js";
import { makeGetExperiment } from "./app/get-experiment.js";
import { makeGetResultFile } from "./app/get-result-file.js";
import { makeGetResults } from "./app/get-results.js";
import { makeGetTemplate } from "./app/get-template.js";
import { makeListDisputes } from "./app/list-disputes.js";
import { makeListExperiments } from "./app/list-experiments.js";
import { makeListReviewQueue } from "./app/list-review-queue.js";
import { makeListTemplates } from "./app/list-templates.js";
import { makeProposeProtocol } from "./app/propose-protocol.js";
import { makeRejectReview } from "./app/reject-review.js";
import { makeReportIssue } from "./app/report-issue.js";
import { makeRequestProtocolChanges } from "./app/request-protocol-changes.js";
import { makeResolveDispute } from "./app/resolve-dispute.js";
import { fileUrlKeySource } from "./app/result-links.js";
import { makeStartExperiment } from "./app/start-experiment.js";
import { makeSubmitDraft } from "./app/submit-draft.js";
import { makeSubmitResults } from "./app/submit-results.js";
import { makeUploadResults } from "./app/upload-results.js";
import { makeUpdateExperiment } from "./app/update-experiment.js";
import { makeValidateExperiment } from "./app/validate-experiment.js";
import { makeValidateHypothesis } from "./app/validate-hypothesis.js";
import { type WebhookUrlCheckOptions, makeCheckWebhookRegistration } from "./app/webhook-registration.js";
import { type BlobStore, type BlobStoreConfig, createBlobStore } from "./blobs/index.js";
import { experimentsMigrations } from "./db/migrations/index.js";
import type { ExperimentsDb } from "./db/schema.js";
import { HYPOTHESIS_VIEWS_CONSUMER, experimentsConsumers } from "./events/subscriptions.js";
import { storedCreateExperimentResponse } from "./rpc/create-experiment-response.js";
import { type ExperimentsUseCases, createExperimentsRpc } from "./rpc/experiments-rpc.js";

export interface ExperimentsHostedService extends HostedService {
  /** The use cases behind the RPCs, for tests and the host. */
  readonly useCases: ExperimentsUseCases;
  /** Deletes the rows past retention now (the runtime's pruner also does so on its interval). */
  prune(): Promise<Record<string, number>>;
}

export interface ExperimentsServiceOptions {
  /**
   * Where result files are stored: a blob store configuration (blobStoreConfigSchema; the
   * file system in standalone mode, S3 in a cluster), or a store the host built itself.
   */
  blobStore: BlobStoreConfig | BlobStore;
  /**
   * How webhook URLs are checked when a request registers one (create, a draft's submission,
   * a PATCH that changes it): the resolver (default: the operating system's, 3 s timeout) and
   * the TESTS-ONLY allowlist (PETRI_WEBHOOK_TEST_ALLOWLIST; production: AddressAllowlist.empty).
   */
  webhookUrlCheck: WebhookUrlCheckOptions;
  /** How long to-experiment waits for a hypothesis saved a moment ago (default READ_MODEL_WAIT). */
  hypothesisViewWait?: ReadModelWait;
}

function isBlobStore(value: BlobStoreConfig | BlobStore): value is BlobStore {
  return typeof (value as Partial<BlobStore>).put === "function";
}

/**
 * Composition root of the experiments service: the Experiment aggregate (requests, the
 * lifecycle, staff review and protocol design, the operator's claim and work, results,
 * approval and disputes), validation, estimates and templates. It consumes the
 * marketplace's operator eligibility and payment events into local projections.
 */
export function createExperimentsService(
  deps: ServiceDeps,
  options: ExperimentsServiceOptions,
): ExperimentsHostedService {
  const { clock } = deps;
  const arrivals = new ReadModelArrivals();
  const runtime = createServiceRuntime<ExperimentsDb>({
    ...deps,
    service: "experiments",
    migrations: experimentsMigrations,
    consumers: experimentsConsumers({ clock, arrivals }),
  });
  const { db } = runtime;
  const unitOfWork = createUnitOfWork(db, runtime.committedEvents);
  const logger = deps.logger.child({ service: "experiments" });
  const changing = { db, clock, unitOfWork };
  const blobs = isBlobStore(options.blobStore) ? options.blobStore : createBlobStore(options.blobStore);
  const signingKey = fileUrlKeySource({ db, clock });
  const { allowlist, resolver } = options.webhookUrlCheck;
  if (allowlist.size > 0)
    logger.warn({ blocks: allowlist.size }, "webhook SSRF test allowlist is set: for tests only");
  const checkWebhookUrl = makeCheckWebhookRegistration({ allowlist, resolver, logger });

  const createExperiment = makeCreateExperiment({
    ...changing,
    checkWebhookUrl,
    storedResponseOf: storedCreateExperimentResponse,
  });
  const useCases: ExperimentsUseCases = {
    createExperiment,
    createExperimentFromHypothesis: makeCreateExperimentFromHypothesis({
      db,
      arrivals,
      wait: options.hypothesisViewWait ?? READ_MODEL_WAIT,
      viewCaughtUp: async () => {
        const lag = await deps.bus.consumerLag?.(streamFor("hypotheses"), HYPOTHESIS_VIEWS_CONSUMER);
        return lag === undefined || lag.pending + lag.unacknowledged === 0;
      },
      createExperiment,
    }),
    submitDraft: makeSubmitDraft({ ...changing, checkWebhookUrl }),
    getExperiment: makeGetExperiment({ db }),
    listExperiments: makeListExperiments({ db }),
    updateExperiment: makeUpdateExperiment({ ...changing, checkWebhookUrl }),
    cancelExperiment: makeCancelExperiment(changing),
    validateExperiment: makeValidateExperiment({ clock }),
    validateHypothesis: makeValidateHypothesis(),
    estimateExperiment: makeEstimateExperiment({ db, clock }),
    listTemplates: makeListTemplates(),
    getTemplate: makeGetTemplate(),
    listReviewQueue: makeListReviewQueue({ db }),
    approveReview: makeApproveReview(changing),
    rejectReview: makeRejectReview(changing),
    proposeProtocol: makeProposeProtocol(changing),
    acceptProtocolProposal: makeAcceptProtocolProposal(changing),
    requestProtocolChanges: makeRequestProtocolChanges(changing),
    claimExperiment: makeClaimExperiment(changing),
    startExperiment: makeStartExperiment(changing),
    reportIssue: makeReportIssue(changing),
    submitResults: makeSubmitResults({ ...changing, blobs, logger }),
    uploadResults: makeUploadResults({ ...changing, blobs, logger }),
    getResults: makeGetResults({ db, clock, signingKey }),
    getResultFile: makeGetResultFile({ db, clock, blobs, logger, signingKey }),
    approveResults: makeApproveResults(changing),
    disputeResults: makeDisputeResults(changing),
    listDisputes: makeListDisputes({ db }),
    getDispute: makeGetDispute({ db, clock, signingKey }),
    resolveDispute: makeResolveDispute(changing),
  };
  const rpc = createExperimentsRpc(useCases);

  return {
    ...runtime.hosted,
    useCases,
    prune: () => runtime.pruner.pruneAll(),
    routes: (router) => {
      router.service(ExperimentsService, rpc);
      runtime.routeDeadLetters(router);
    },
  };
}
