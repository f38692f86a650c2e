/**
 * The fake OpenAI-compatible server of @petri/llm, answering with hypothesis-shaped replies
 * (the writer's reply schema). The replies are obviously synthetic test fixtures, not science.
 */
import {
  type FakeLlmServer,
  type FakeLlmServerOptions,
  startFakeLlmServer as startGenericFakeLlmServer,
} from "@petri/llm/testing";

export {
  FAKE_LLM_MODEL,
  FAKE_UPSTREAM_BODY_MARKER,
  type FakeLlmScenario,
  type FakeLlmScenarioOptions,
  type FakeLlmServer,
} from "@petri/llm/testing";

export const FAKE_LLM_VALID_REPLY = {
  statement:
    "Synthetic test compound PT-0001 reduces the growth of the placeholder test organism compared with the vehicle control.",
  null_hypothesis:
    "Synthetic test compound PT-0001 does not change the growth of the placeholder test organism compared with the vehicle control.",
  rationale: "Fixture reply of the fake language model server used in Petri tests.",
  experiment_type: "MIC_MBC_ASSAY",
} as const;

/** Violates the schema: an empty statement, a number for the rationale, an unknown type. */
export const FAKE_LLM_INVALID_REPLY = {
  statement: "",
  null_hypothesis: "Synthetic fixture null hypothesis.",
  rationale: 42,
  experiment_type: "NOT_A_TYPE",
};

export function startFakeLlmServer(
  initial: Pick<FakeLlmServerOptions, "scenario" | "options"> = {},
): Promise<FakeLlmServer> {
  return startGenericFakeLlmServer({
    ...initial,
    validReply: FAKE_LLM_VALID_REPLY,
    invalidReply: FAKE_LLM_INVALID_REPLY,
  });
}
