import { HypothesesService } from "@petri/contracts/hypotheses";
import { createUnitOfWork } from "@petri/events";
import { type ServiceDeps, createServiceRuntime } from "@petri/host";
import {
  type HostedService,
  READ_MODEL_WAIT,
  ReadModelArrivals,
  type ReadModelWait,
} from "@petri/service-kit";
import { makeArchiveHypothesis } from "./app/archive-hypothesis.js";
import { makeCreateHypothesis } from "./app/create-hypothesis.js";
import { makeGetHypothesis } from "./app/get-hypothesis.js";
import { makeListHypotheses } from "./app/list-hypotheses.js";
import { makeUpdateHypothesis } from "./app/update-hypothesis.js";
import { makeCreateHypothesisFromExperiment } from "./app/create-hypothesis-from-experiment.js";
import { makeLinkExperiment } from "./app/link-experiment.js";
import { makePrepareExperimentFromHypothesis } from "./app/prepare-experiment-from-hypothesis.js";
import { hypothesesConsumers } from "./events/subscriptions.js";
import { hypothesesMigrations } from "./db/migrations/index.js";
import type { HypothesesDb } from "./db/schema.js";
import { type HypothesesUseCases, HypothesesRpc } from "./rpc/hypotheses-rpc.js";

export interface HypothesesHostedService extends HostedService {
  /** The use cases behind the RPCs, for tests and the host. */
  readonly useCases: HypothesesUseCases;
}

/** Composition root of the hypotheses service: each account's hypothesis library. */
export function createHypothesesService(
  deps: ServiceDeps,
  options: { experimentViewWait?: ReadModelWait } = {},
): HypothesesHostedService {
  const arrivals = new ReadModelArrivals();
  const runtime = createServiceRuntime<HypothesesDb>({
    ...deps,
    service: "hypotheses",
    migrations: hypothesesMigrations,
    consumers: hypothesesConsumers({ clock: deps.clock, logger: deps.logger, arrivals }),
  });
  const { db } = runtime;
  // A change answers once its HypothesisSaved is on the bus: the experiments service's view
  // then sees it as pending, and to-experiment waits for it (D349).
  const unitOfWork = createUnitOfWork(db, runtime.committedEvents, { awaitPublication: true });
  const changing = { db, clock: deps.clock, unitOfWork };

  const useCases: HypothesesUseCases = {
    createHypothesis: makeCreateHypothesis(changing),
    listHypotheses: makeListHypotheses({ db }),
    getHypothesis: makeGetHypothesis({ db }),
    updateHypothesis: makeUpdateHypothesis(changing),
    archiveHypothesis: makeArchiveHypothesis(changing),
    prepareExperimentFromHypothesis: makePrepareExperimentFromHypothesis({ db }),
    linkExperimentToHypothesis: makeLinkExperiment(changing),
    createHypothesisFromExperiment: makeCreateHypothesisFromExperiment({
      ...changing,
      arrivals,
      wait: options.experimentViewWait ?? READ_MODEL_WAIT,
    }),
  };
  const rpc = new HypothesesRpc(useCases);

  return {
    ...runtime.hosted,
    useCases,
    routes: (router) => {
      router.service(HypothesesService, rpc);
      runtime.routeDeadLetters(router);
    },
  };
}
