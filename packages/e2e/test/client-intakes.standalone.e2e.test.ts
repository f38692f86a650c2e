import { afterAll, beforeAll, describe, it } from "vitest";
import { clientIntakesScenario } from "./client-intakes.scenarios.js";
import type { ExperimentsTarget } from "./experiments.scenarios.js";
import { STAFF, startStandaloneHost } from "./support/hosts.js";

describe("other marketplaces' client requests, standalone mode", () => {
  let host: Awaited<ReturnType<typeof startStandaloneHost>>;
  let target: ExperimentsTarget;

  beforeAll(async () => {
    host = await startStandaloneHost("petri-e2e-client-intakes");
    target = { baseUrls: [host.petri.url], staff: STAFF };
  });

  afterAll(() => host?.stop());

  it("each type, in the other spellings: /validate valid, POST /experiments 201, stored in ours", () =>
    clientIntakesScenario(target));
});
