/**
 * The engine result travels typed only when its message writes back the same REST JSON
 * (D356): every result the pipeline produces does, with the real offline rules on the whole
 * query corpus, the real Europe PMC provider and the real LLM writer (against their fakes).
 */
import { EngineResultSchema } from "@petri/contracts/engine";
import { toRestJson } from "@petri/contracts/rest-json";
import {
  ENGINE_QUERY_CORPUS,
  FAKE_LLM_MODEL,
  type FakeLiteratureServer,
  type FakeLlmServer,
  startFakeLiteratureServer,
  startFakeLlmServer,
} from "@petri/fixtures/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineRulesProviders } from "../app/offline-rules.js";
import { type EngineProviders, runPipeline } from "../app/run-pipeline.js";
import type { GeneratedHypothesis, GenerationRequest } from "../domain/generation.js";
import { EuropePmcLiterature } from "../providers/literature/europe-pmc-literature.js";
import { OpenAiCompatibleWriter } from "../providers/llm/openai-compatible-writer.js";
import { editedHypothesisMessage, resultMessage } from "./result-message.js";

let literatureServer: FakeLiteratureServer;
let llmServer: FakeLlmServer;
let literature: EuropePmcLiterature;
let writer: OpenAiCompatibleWriter;

beforeAll(async () => {
  [literatureServer, llmServer] = await Promise.all([startFakeLiteratureServer(), startFakeLlmServer()]);
  literatureServer.setScenario("mixed");
  literature = new EuropePmcLiterature({
    europePmcBaseUrl: literatureServer.europePmcBaseUrl,
    doiBaseUrl: literatureServer.doiBaseUrl,
    crossrefBaseUrl: literatureServer.crossrefBaseUrl,
    contactEmail: "engine-tests@example.org",
    timeoutMs: 5000,
    maxRetries: 0,
    sleep: async () => {},
    now: () => new Date("2026-01-02T03:04:05.000Z"),
  });
  writer = new OpenAiCompatibleWriter({
    baseUrl: llmServer.url,
    apiKey: "sk-petri-test",
    model: FAKE_LLM_MODEL,
    timeoutMs: 5000,
    maxRetries: 0,
    sleep: async () => {},
  });
});
afterAll(async () => {
  await literature.close();
  await Promise.all([literatureServer.close(), llmServer.close()]);
});

const generate = (request: GenerationRequest, providers: EngineProviders) =>
  runPipeline(request, providers, async () => {}, new AbortController().signal);

/** The REST JSON the typed field writes is the text the JSON field carries. */
function expectExact(result: GeneratedHypothesis) {
  const message = resultMessage(result);
  expect(message, "the result travels typed").toBeDefined();
  expect(JSON.stringify(toRestJson(EngineResultSchema, message!))).toBe(JSON.stringify(result));
}

describe("the engine result as a message", () => {
  it.each(ENGINE_QUERY_CORPUS.map((entry, index) => ({ index, entry })))(
    "corpus #$index with the offline rules alone writes back exactly",
    async ({ entry }) => {
      const request = { query: entry.query, context: entry.context ?? "", jobType: "hypothesis_generation" };
      expectExact(await generate(request as GenerationRequest, offlineRulesProviders));
    },
  );

  it("with verified sources (year, journal and PMID or not) and an LLM's text writes back exactly", async () => {
    const request: GenerationRequest = {
      query: ENGINE_QUERY_CORPUS[0]!.query,
      context: "",
      jobType: "literature_review",
    };
    const result = await generate(request, { ...offlineRulesProviders, literature, writer });
    expect(result.sources.map((source) => source.year !== undefined)).toEqual([true, false]);
    expect(result.engine).toContain(FAKE_LLM_MODEL);
    expectExact(result);
  });

  it("a document the message cannot say exactly travels as text only", () => {
    expect(resultMessage({ hypothesis: { statement: "s" }, unknown_key: 1 })).toBeUndefined();
    expect(resultMessage(null)).toBeUndefined();
  });

  it("the caller's edit, as the jsonb column returns it, writes back exactly", () => {
    const edited = { statement: "It inhibits.", null_hypothesis: "It does not." };
    expect(editedHypothesisMessage(edited)).toMatchObject({
      statement: "It inhibits.",
      nullHypothesis: "It does not.",
    });
    expect(editedHypothesisMessage(null)).toBeUndefined();
  });
});
