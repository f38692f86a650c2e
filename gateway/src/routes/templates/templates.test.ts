import { Role, Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import {
  FakeExperiments,
  TEMPLATES,
  gatewayWithExperiments,
} from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf, from } from "../../../test/support/fake-identity.js";

const SOURCE = "198.51.100.62";

let identity: FakeIdentity;
let experiments: FakeExperiments;
let app: Awaited<ReturnType<typeof gatewayWithExperiments>>;
let apiKey: string;

beforeEach(async () => {
  const clock = new FakeClock("2026-03-02T10:00:00.000Z");
  identity = await FakeIdentity.create(clock);
  experiments = new FakeExperiments(clock);
  app = await gatewayWithExperiments(identity, experiments);
  apiKey = identity.addAccount({ tier: Tier.PRO }).secret;
});

const get = (path: string, key = apiKey) =>
  app.request(path, { headers: { "x-api-key": key } }, from(SOURCE));

describe("templates", () => {
  it("GET /templates lists the catalogue's items as the service wrote them, with the filters passed on", async () => {
    const response = await get("/templates?category=microbiology&bsl_level=BSL2");
    expect(response.status).toBe(200);
    expect(experiments.last("ListTemplates")).toMatchObject({ category: "microbiology", bslLevel: "BSL2" });
    expect(await bodyOf(response)).toEqual({
      templates: [
        {
          id: "mic-broth-microdilution-v1",
          name: "MIC by broth microdilution",
          description: "CLSI M07 broth microdilution",
          category: "microbiology",
          bsl_level: "BSL-2",
          estimated_cost_range: "$200-$400",
        },
      ],
    });
    await get("/templates");
    expect(experiments.last("ListTemplates")).toMatchObject({ category: "", bslLevel: "" });
  });

  it("GET /templates/{id} gives the full record; an unknown id is 404", async () => {
    const response = await get("/templates/mic-broth-microdilution-v1");
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual(TEMPLATES[0]);
    const missing = await get("/templates/nope-v9");
    expect(missing.status).toBe(404);
    expect((await bodyOf(missing)).error.code).toBe("not_found");
  });

  it("is readable by every account, not without credentials", async () => {
    for (const role of [Role.REQUESTER, Role.OPERATOR, Role.STAFF]) {
      expect((await get("/templates", identity.addAccount({ role, tier: Tier.PRO }).secret)).status).toBe(
        200,
      );
    }
    expect((await app.request("/templates", {}, from(SOURCE))).status).toBe(401);
  });

  it("bounds the query values", async () => {
    expect((await get(`/templates?category=${"x".repeat(65)}`)).status).toBe(422);
    expect((await get("/templates?bsl_level=")).status).toBe(422);
    expect(experiments.count("ListTemplates")).toBe(0);
  });
});
