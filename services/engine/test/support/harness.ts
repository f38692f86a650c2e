/**
 * Integration harness: the engine service on a real database (PostgreSQL or PGlite), reached
 * through a Connect router transport with the production server interceptors, and a run worker
 * the test drives (step/drain) on a fake clock. The pipeline's providers are the test's.
 */
import type { Client } from "@connectrpc/connect";
import { EngineService } from "@petri/contracts/engine";
import type { Database } from "@petri/db";
import type { Principal } from "@petri/service-kit";
import type { Engine, TestBackend } from "@petri/service-testkit";
import { routerClients, serviceTestBed, startServiceForTest } from "@petri/service-testkit";
import type { FakeClock } from "@petri/testkit";
import type { Kysely } from "kysely";
import type { EngineProviders, RulesResult } from "../../src/app/run-pipeline.js";
import type { EngineRunLimits } from "../../src/config.js";
import type { EngineDb } from "../../src/db/schema.js";
import type { GenerationRequest } from "../../src/domain/generation.js";
import { type EngineHostedService, createEngineService } from "../../src/service.js";
import { NO_ENTITIES } from "./writer-input.js";

export type { Engine };

const bed = await serviceTestBed("engine");
export const { engines: ENGINES, logger, backend: Backend } = bed;
export type Backend = TestBackend;

export const START = new Date("2026-12-16T09:00:00.000Z");

/** A rules result for any query: enough for the pipeline, the worker and the RPCs. */
export function cannedRules(request: GenerationRequest): RulesResult {
  return {
    experiment_type: request.experimentType ?? "MIC_MBC_ASSAY",
    hypothesis: {
      statement: `Compound tested in "${request.query}" inhibits growth at 8 ug/mL or less.`,
      null_hypothesis: "No tested concentration inhibits growth.",
      rationale: "Drafted from rules, not from literature.",
    },
    intake_draft: { experiment_type: request.experimentType ?? "MIC_MBC_ASSAY", hypothesis: {} },
    reasoning_trace: [{ step: 1, action: "rule:test", summary: "a canned rule fired" }],
    entities: NO_ENTITIES,
    notes: [],
    engine: "offline-rules@test",
    searchTerms: request.query,
  };
}

export const cannedProviders: EngineProviders = {
  rules: cannedRules,
  withHypothesis: (draft, hypothesis) => ({
    ...draft,
    hypothesis: { statement: hypothesis.statement, null_hypothesis: hypothesis.null_hypothesis },
  }),
};

export interface EngineUnderTest {
  service: EngineHostedService;
  db: Kysely<EngineDb>;
  clock: FakeClock;
  as(principal?: Principal): Client<typeof EngineService>;
  stop(): Promise<void>;
}

export async function startEngine(
  database: Database,
  options: { providers?: EngineProviders; limits?: Partial<EngineRunLimits> } = {},
): Promise<EngineUnderTest> {
  const { service, clock, stop } = await startServiceForTest(database, START, logger, (deps) =>
    createEngineService(deps, {
      pipelineProviders: options.providers ?? cannedProviders,
      ...(options.limits ? { limits: options.limits } : {}),
      runInBackground: false,
    }),
  );
  const as = await routerClients(EngineService, (router) => service.routes(router), logger);
  return { service, db: database.forSchema<EngineDb>("engine"), clock, as, stop };
}

export { testRequester as requester } from "@petri/service-testkit";

/** Code, reason and details of a failed call, for compact assertions. */
export { callFailure as failure } from "@petri/service-testkit";

/** Resolves when `condition` holds, polling the database-backed state (bounded). */
export async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}
