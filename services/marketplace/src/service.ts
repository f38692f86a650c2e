import { MarketplaceService } from "@petri/contracts/marketplace";
import { createUnitOfWork } from "@petri/events";
import { type ServiceDeps, createServiceRuntime } from "@petri/host";
import type { HostedService } from "@petri/service-kit";
import { makeCheckLedger } from "./app/check-ledger.js";
import { makeGetExperimentPayment } from "./app/get-experiment-payment.js";
import { makeGetMyOperator } from "./app/get-my-operator.js";
import { makeGetOperator } from "./app/get-operator.js";
import { makeListJobs } from "./app/list-jobs.js";
import { makeListOperators } from "./app/list-operators.js";
import { makeRankLabs } from "./app/rank-labs.js";
import { makeReinstateOperator } from "./app/reinstate-operator.js";
import { makeRejectOperator } from "./app/reject-operator.js";
import { makeSubmitOperatorProfile } from "./app/submit-operator-profile.js";
import { makeSuspendOperator } from "./app/suspend-operator.js";
import { makeVerifyOperator } from "./app/verify-operator.js";
import { marketplaceMigrations } from "./db/migrations/index.js";
import type { MarketplaceDb } from "./db/schema.js";
import { type PaymentProvider, SandboxPaymentProvider } from "./domain/ledger/payment-provider.js";
import { marketplaceConsumers } from "./events/subscriptions.js";
import { type MarketplaceUseCases, MarketplaceRpc } from "./rpc/marketplace-rpc.js";

export interface MarketplaceDeps extends ServiceDeps {
  /** Where postings become money; the sandbox (which moves none) by default. */
  paymentProvider?: PaymentProvider;
}

export interface MarketplaceHostedService extends HostedService {
  /** The use cases behind the RPCs, for tests and the host. */
  readonly useCases: MarketplaceUseCases;
  readonly paymentProvider: PaymentProvider;
}

/**
 * Composition root of the marketplace service: operators and their verification, the job
 * projection and feed, lab matching, quality metrics, and the escrow ledger with its payment
 * provider, fed by the experiments service's events.
 */
export function createMarketplaceService(deps: MarketplaceDeps): MarketplaceHostedService {
  const { paymentProvider = new SandboxPaymentProvider(), ...serviceDeps } = deps;
  const { clock } = deps;
  const runtime = createServiceRuntime<MarketplaceDb>({
    ...serviceDeps,
    service: "marketplace",
    migrations: marketplaceMigrations,
    consumers: marketplaceConsumers({ clock, provider: paymentProvider }),
  });
  const { db } = runtime;
  const changing = { db, clock, unitOfWork: createUnitOfWork(db, runtime.committedEvents) };

  const useCases: MarketplaceUseCases = {
    submitOperatorProfile: makeSubmitOperatorProfile(changing),
    getMyOperator: makeGetMyOperator({ db }),
    listOperators: makeListOperators({ db }),
    getOperator: makeGetOperator({ db }),
    verifyOperator: makeVerifyOperator(changing),
    rejectOperator: makeRejectOperator(changing),
    suspendOperator: makeSuspendOperator(changing),
    reinstateOperator: makeReinstateOperator(changing),
    listJobs: makeListJobs({ db, clock }),
    rankLabs: makeRankLabs({ db, clock }),
    getExperimentPayment: makeGetExperimentPayment({ db }),
    checkLedger: makeCheckLedger({ db }),
  };
  const rpc = new MarketplaceRpc(useCases);

  return {
    ...runtime.hosted,
    useCases,
    paymentProvider,
    routes: (router) => {
      router.service(MarketplaceService, rpc);
      runtime.routeDeadLetters(router);
    },
  };
}
