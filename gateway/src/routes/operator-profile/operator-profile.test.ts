import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createRouterTransport } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus } from "@petri/contracts/health";
import { Tier } from "@petri/contracts/identity";
import {
  MarketplaceService,
  type Operator,
  OperatorProfileSchema,
  OperatorSchema,
  VerificationRecordSchema,
} from "@petri/contracts/marketplace";
import { fromRestJson } from "@petri/contracts/rest-json";
import { createLogger, serverInterceptors } from "@petri/service-kit";
import { FakeClock, operatorProfile, verificationRecord } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { type FakeService, gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { caller } from "../../../test/support/requests.js";

const SOURCE = "198.51.100.160";

// What a service built before D336 sends (the JSON text only) cannot come from the real
// services, so these tests stand in a marketplace that answers GetMyOperator with the record
// a test gives. The rest of the routes' tests run on the real services
// (test/routes/operator-profile.int.test.ts).
let sent: Operator;
let call: ReturnType<typeof caller>;

const marketplace: FakeService = {
  transport: (verifier, clientSide) =>
    createRouterTransport(
      (router) => {
        router.service(Health, {
          check: async () => ({ status: HealthCheckResponse_ServingStatus.SERVING }),
        });
        router.service(MarketplaceService, { getMyOperator: async () => ({ operator: sent }) });
      },
      {
        router: {
          interceptors: serverInterceptors({
            logger: createLogger({ service: "marketplace-stand-in", level: "silent" }),
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
  const app = await gatewayWithServices(identity, { marketplace });
  const account = identity.addAccount({ tier: Tier.PRO });
  const now = timestampFromDate(clock.now());
  sent = create(OperatorSchema, {
    id: "op_00000000000000000000000001",
    accountId: account.account.id,
    status: "active",
    labName: "Typed Lab",
    version: 1n,
    createdAt: now,
    updatedAt: now,
  });
  call = caller(app, SOURCE, () => account.secret);
});

describe("the operator record's profile and verification on the wire (D336)", () => {
  // As a marketplace service stores them: defaults filled in, BSL spelled BSL-1 or BSL-2.
  const stored = {
    ...operatorProfile("Typed Lab"),
    compliance: { ...operatorProfile("Typed Lab").compliance, max_bsl: "BSL-2", certifications: [] },
  };
  const storedProfile = {
    ...stored,
    capabilities: { ...stored.capabilities, cell_lines_available: [], organisms_available: [] },
  };
  const storedVerification = {
    ...verificationRecord(),
    verified_equipment: ["incubator"],
    verified_by: "acc_1",
  };

  it("are written from the typed messages, which win over the JSON text", async () => {
    sent.profile = fromRestJson(OperatorProfileSchema, storedProfile);
    sent.verification = fromRestJson(VerificationRecordSchema, storedVerification);
    sent.profileJson = JSON.stringify({ stale: true });
    const mine = await bodyOf(await call("GET", "/operator/profile"));
    expect(mine.profile).toEqual(storedProfile);
    expect(mine.verification).toEqual(storedVerification);
  });

  it("are read from the JSON text when a service built before them sent no typed message", async () => {
    sent.profileJson = JSON.stringify(storedProfile);
    sent.verificationJson = JSON.stringify(storedVerification);
    const mine = await bodyOf(await call("GET", "/operator/profile"));
    expect(mine.profile).toEqual(storedProfile);
    expect(mine.verification).toEqual(storedVerification);
  });
});
