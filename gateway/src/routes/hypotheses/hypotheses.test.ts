/**
 * A hypothesis's intake draft and engine response on the wire (D-NEW-1): written from the
 * Structs, which win over the JSON text, and read from the text when a service built before them
 * sent none. A hypotheses stand-in answers with the record a test gives (the real service's
 * answers: test/routes/hypotheses.int.test.ts).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createRouterTransport } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus } from "@petri/contracts/health";
import { type Hypothesis, HypothesesService, HypothesisSchema } from "@petri/contracts/hypotheses";
import { createLogger, serverInterceptors } from "@petri/service-kit";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { type FakeService, gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { caller } from "../../../test/support/requests.js";

const ID = "hyp_01jd0c6r5v8q2m7x4k9w3t1b6n";
/** As a client sent them: keys in their own order, second spellings, any values. */
const DRAFT = { title: "T", budget_usd: 900, constraints: { turnaround_days: 7 }, tags: ["a", null] };
const RESPONSE = { hypothesis: { statement: "s" }, sources: [{ title: "Paper", doi: "10.1/x" }] };

let sent: Hypothesis;
let call: ReturnType<typeof caller>;

const hypotheses: FakeService = {
  transport: (verifier, clientSide) =>
    createRouterTransport(
      (router) => {
        router.service(Health, {
          check: async () => ({ status: HealthCheckResponse_ServingStatus.SERVING }),
        });
        router.service(HypothesesService, { getHypothesis: async () => ({ hypothesis: sent }) });
      },
      {
        router: {
          interceptors: serverInterceptors({
            logger: createLogger({ service: "hypotheses-stand-in", level: "silent" }),
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
  const app = await gatewayWithServices(identity, { hypotheses });
  const account = identity.addAccount({});
  const now = timestampFromDate(clock.now());
  sent = create(HypothesisSchema, {
    id: ID,
    ownerAccountId: account.account.id,
    title: "T",
    statement: "S",
    status: "DRAFT",
    engineAgent: "hypothesis_generation",
    engineQuery: "q",
    version: 1n,
    createdAt: now,
    updatedAt: now,
  });
  call = caller(app, "198.51.100.172", () => account.secret);
});

const read = async () => {
  const response = await call("GET", `/hypotheses/${ID}`);
  expect(response.status).toBe(200);
  return bodyOf(response);
};

describe("a hypothesis's documents on the wire (D-NEW-1)", () => {
  it("are written from the Structs, which win over the JSON text, keys in their order", async () => {
    sent.intakeDraft = DRAFT;
    sent.engineResponse = RESPONSE;
    sent.intakeDraftJson = JSON.stringify({ stale: true });
    sent.engineResponseJson = JSON.stringify({ stale: true });
    const record = await read();
    expect(JSON.stringify(record.intake_draft)).toBe(JSON.stringify(DRAFT));
    expect(JSON.stringify(record.engine_response)).toBe(JSON.stringify(RESPONSE));
  });

  it("are read from the JSON text when a service built before them sent no Struct", async () => {
    sent.intakeDraftJson = JSON.stringify(DRAFT);
    sent.engineResponseJson = JSON.stringify(RESPONSE);
    const record = await read();
    expect(JSON.stringify(record.intake_draft)).toBe(JSON.stringify(DRAFT));
    expect(JSON.stringify(record.engine_response)).toBe(JSON.stringify(RESPONSE));
  });

  it("are null when neither form came", async () => {
    expect(await read()).toMatchObject({ intake_draft: null, engine_response: null });
  });
});
