/** Test support: a fake OpenAI-compatible server, and the fake-server plumbing other fakes reuse. */
export {
  type FakeHandler,
  type FakeServer,
  type RecordedRequest,
  delay,
  sendJson,
  sendText,
  startFakeHttpServer,
} from "./fake-http.js";
export {
  FAKE_JSON_INVALID_REPLY,
  FAKE_JSON_VALID_REPLY,
  FAKE_LLM_MODEL,
  FAKE_LLM_PROSE_REPLY,
  FAKE_UPSTREAM_BODY_MARKER,
  type FakeLlmScenario,
  type FakeLlmScenarioOptions,
  type FakeLlmServer,
  type FakeLlmServerOptions,
  startFakeLlmServer,
} from "./fake-llm-server.js";
