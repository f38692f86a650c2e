/**
 * The engine result and the caller's edit on the wire (D356): written from the typed messages,
 * which win over the JSON text, and read from the text when a service built before them sent
 * none. A service built before cannot come from the real services, so an engine stand-in answers
 * with the run a test gives (the real engine's answers: test/routes/engine.int.test.ts).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createRouterTransport } from "@connectrpc/connect";
import {
  EditedHypothesisSchema,
  EngineResultSchema,
  type EngineRun,
  EngineRunSchema,
  EngineService,
} from "@petri/contracts/engine";
import { Health, HealthCheckResponse_ServingStatus } from "@petri/contracts/health";
import { fromRestJson } from "@petri/contracts/rest-json";
import { createLogger, serverInterceptors } from "@petri/service-kit";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { type FakeService, gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { caller } from "../../../test/support/requests.js";

/** An engine result as the pipeline writes it (services/engine run-pipeline.ts), keys in its order. */
const RESULT = {
  hypothesis: { statement: "S.", null_hypothesis: "N.", rationale: "R." },
  experiment_type: "MIC_MBC_ASSAY",
  intake_draft: { experiment_type: "MIC_MBC_ASSAY", title: "T", privacy: "private" },
  reasoning_trace: [{ step: 1, action: "rule:organism_recognised", summary: "E. coli" }],
  sources: [
    {
      title: "Synthetic fixture (Petri test data)",
      doi: "10.5555/petri-test.0001",
      relevance: "Europe PMC search result 1",
      provider: "europepmc",
      retrieved_by: "E. coli",
      year: 2001,
      verification: {
        doi_resolves: true,
        title_similarity: 0.97,
        registered_title: "Synthetic fixture",
        checked_at: "2026-01-02T03:04:05.000Z",
      },
    },
  ],
  engine: "offline-rules@1",
  literature_grounded: true,
  notes: ["budget is a placeholder"],
};
const EDITED = { statement: "Edited.", null_hypothesis: "Not edited." };
/** PostgreSQL's jsonb order of RESULT's keys (shorter first, then by bytes): a run's result. */
const STORED_KEYS = [
  "notes",
  "engine",
  "sources",
  "hypothesis",
  "intake_draft",
  "experiment_type",
  "reasoning_trace",
  "literature_grounded",
];

const RUN_ID = "run_01jd0c6r5v8q2m7x4k9w3t1b6n";
let sent: EngineRun;
let syncAnswer: { resultJson: string; result?: ReturnType<typeof typedResult> };
let call: ReturnType<typeof caller>;
const typedResult = () => fromRestJson(EngineResultSchema, RESULT);

const engine: FakeService = {
  transport: (verifier, clientSide) =>
    createRouterTransport(
      (router) => {
        router.service(Health, {
          check: async () => ({ status: HealthCheckResponse_ServingStatus.SERVING }),
        });
        router.service(EngineService, {
          getEngineRun: async () => ({ run: sent }),
          generateHypothesis: async () => syncAnswer,
        });
      },
      {
        router: {
          interceptors: serverInterceptors({
            logger: createLogger({ service: "engine-stand-in", level: "silent" }),
            verifier,
          }),
        },
        transport: { interceptors: clientSide },
      },
    ),
};

beforeEach(async () => {
  const clock = new FakeClock("2026-03-02T10:00:00.000Z");
  const identity = await FakeIdentity.create(clock);
  const app = await gatewayWithServices(identity, { engine });
  const account = identity.addAccount({});
  const now = timestampFromDate(clock.now());
  sent = create(EngineRunSchema, {
    runId: RUN_ID,
    ownerAccountId: account.account.id,
    status: "COMPLETED",
    query: "q",
    jobType: "hypothesis_generation",
    experimentType: "MIC_MBC_ASSAY",
    progress: { stage: "done", percentage: 100 },
    attempts: 1,
    createdAt: now,
    completedAt: now,
  });
  syncAnswer = { resultJson: "" };
  call = caller(app, "198.51.100.171", () => account.secret);
});

const stale = JSON.stringify({ stale: true });

describe("a run's result and edit on the wire (D356)", () => {
  it("are written from the typed messages, which win over the JSON text, in the stored key order", async () => {
    sent.result = typedResult();
    sent.editedHypothesis = create(EditedHypothesisSchema, {
      statement: EDITED.statement,
      nullHypothesis: EDITED.null_hypothesis,
    });
    sent.resultJson = stale;
    sent.editedHypothesisJson = stale;
    const response = await call("GET", `/cloud-labs/engine/runs/${RUN_ID}`);
    expect(response.status).toBe(200);
    const run = await bodyOf(response);
    expect(run.result).toEqual(RESULT);
    expect(Object.keys(run.result)).toEqual(STORED_KEYS);
    expect(run.edited_hypothesis).toEqual(EDITED);
  });

  it("are read from the JSON text when a service built before them sent no typed message", async () => {
    sent.resultJson = JSON.stringify(RESULT);
    sent.editedHypothesisJson = JSON.stringify(EDITED);
    const run = await bodyOf(await call("GET", `/cloud-labs/engine/runs/${RUN_ID}`));
    expect(JSON.stringify(run.result)).toBe(JSON.stringify(RESULT));
    expect(run.edited_hypothesis).toEqual(EDITED);
  });
});

describe("the synchronous answer on the wire (D356)", () => {
  const generate = () => call("POST", "/cloud-labs/engine", { query: "MIC of drug X against E. coli" });

  it("is written from the typed message, which wins, in the pipeline's key order", async () => {
    syncAnswer = { resultJson: stale, result: typedResult() };
    const response = await generate();
    expect(response.status).toBe(200);
    expect(JSON.stringify(await bodyOf(response))).toBe(JSON.stringify(RESULT));
  });

  it("is read from the JSON text when no typed message came", async () => {
    syncAnswer = { resultJson: JSON.stringify(RESULT) };
    expect(JSON.stringify(await bodyOf(await generate()))).toBe(JSON.stringify(RESULT));
  });
});
