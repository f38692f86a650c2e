export type { FakeServer, RecordedRequest } from "@petri/llm/testing";
export {
  FAKE_LLM_INVALID_REPLY,
  FAKE_LLM_MODEL,
  FAKE_LLM_VALID_REPLY,
  FAKE_UPSTREAM_BODY_MARKER,
  type FakeLlmScenario,
  type FakeLlmScenarioOptions,
  type FakeLlmServer,
  startFakeLlmServer,
} from "./fake-llm-server.js";
export {
  FAKE_DOIS,
  type FakeLiteratureScenario,
  type FakeLiteratureScenarioOptions,
  type FakeLiteratureServer,
  startFakeLiteratureServer,
} from "./fake-literature-server.js";
export { FIXTURE_SOURCE, NO_ENTITIES, writerInput } from "./writer-input.js";
