/**
 * The typed engine result and edit say what their JSON text says (D356): on PostgreSQL and
 * PGlite, with the offline rules engine on one corpus query of each experiment type, a stored
 * run's `result` written as REST JSON in jsonb's key order is its `result_json` text exactly,
 * as is the edit; the synchronous answer's `result` in field order is its text.
 */
import { EditedHypothesisSchema, EngineResultSchema } from "@petri/contracts/engine";
import { toRestJson } from "@petri/contracts/rest-json";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { ENGINE_QUERY_CORPUS } from "@petri/fixtures/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineRulesProviders } from "../src/app/offline-rules.js";
import { STORED } from "../src/contract/result-message.js";
import { Backend, ENGINES, type EngineUnderTest, requester, startEngine } from "./support/harness.js";

const ONE_QUERY_PER_TYPE = EXPERIMENT_TYPES.map((type) =>
  ENGINE_QUERY_CORPUS.find((entry) => entry.expected_type === type)!,
);

describe.each(ENGINES)("the engine result travels typed on %s", (engine) => {
  let backend: Backend;
  let e: EngineUnderTest;

  beforeAll(async () => {
    backend = await Backend.open(engine);
    e = await startEngine(backend.database, { providers: offlineRulesProviders });
  });
  afterAll(async () => {
    await e?.stop();
    await backend?.close();
  });

  it.each(ONE_QUERY_PER_TYPE)("a completed run of $expected_type, and its edit", async (entry) => {
    const owner = requester();
    const start = { query: entry.query, context: entry.context ?? "", jobType: "", experimentType: "" };
    const { run } = await e.as(owner).startEngineRun(start);
    expect(run!.result).toBeUndefined();
    await e.service.worker.drain();
    const { run: done } = await e.as(owner).getEngineRun({ runId: run!.runId });
    expect(done!.status).toBe("COMPLETED");
    expect(done!.result, "the stored result travels typed").toBeDefined();
    expect(JSON.stringify(toRestJson(EngineResultSchema, done!.result!, STORED))).toBe(done!.resultJson);

    const edit = { runId: run!.runId, statement: "Edited statement.", nullHypothesis: "Edited null." };
    const { run: edited } = await e.as(owner).updateEngineRunDraft(edit);
    expect(edited!.editedHypothesis).toBeDefined();
    expect(JSON.stringify(toRestJson(EditedHypothesisSchema, edited!.editedHypothesis!, STORED))).toBe(
      edited!.editedHypothesisJson,
    );
  });

  it("the synchronous answer", async () => {
    const entry = ONE_QUERY_PER_TYPE[0]!;
    const answer = await e
      .as(requester())
      .generateHypothesis({ query: entry.query, context: entry.context ?? "", experimentType: "" });
    expect(answer.result).toBeDefined();
    expect(JSON.stringify(toRestJson(EngineResultSchema, answer.result!))).toBe(answer.resultJson);
  });
});
