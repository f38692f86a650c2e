import { describe, it } from "vitest";
import { clientIntakesScenario } from "./client-intakes.scenarios.js";
import { standaloneOfBlock } from "./support/blocks.js";

describe("other marketplaces' client requests, standalone mode", () => {
  const deployment = standaloneOfBlock("petri-e2e-client-intakes");

  it("each type, in the other spellings: /validate valid, POST /experiments 201, stored in ours", () =>
    clientIntakesScenario(deployment.target));
});
