import { create } from "@bufbuild/protobuf";
import { Role, Tier } from "@petri/contracts/identity";
import { CheckLedgerResponseSchema } from "@petri/contracts/marketplace";
import { FakeClock } from "@petri/testkit";
import { beforeEach, expect, it } from "vitest";
import { gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { FakeMarketplace } from "../../../test/support/fake-marketplace.js";
import { caller } from "../../../test/support/requests.js";

let identity: FakeIdentity;
let marketplace: FakeMarketplace;
let call: ReturnType<typeof caller>;

beforeEach(async () => {
  const clock = new FakeClock("2026-03-02T10:00:00.000Z");
  identity = await FakeIdentity.create(clock);
  marketplace = new FakeMarketplace(clock);
  const app = await gatewayWithServices(identity, { marketplace });
  const staff = identity.addAccount({ role: Role.STAFF, tier: Tier.PRO });
  call = caller(app, "198.51.100.180", () => staff.secret);
});

it("GET /admin/ledger reports the conservation check in USD to the cent", async () => {
  marketplace.ledger = create(CheckLedgerResponseSchema, {
    balanced: false,
    experiments: 3n,
    heldCents: 123_456n,
    releasedCents: 1999n,
    refundedCents: 30n,
    compensatedCents: 1n,
    disputeToRequesterCents: 10n,
    disputeToOperatorCents: 20n,
    stillHeldCents: 121_395n,
    violations: ["exp_00000000000000000000000002: held 100 != 99"],
  });
  const response = await call("GET", "/admin/ledger");
  expect(response.status).toBe(200);
  expect(await bodyOf(response)).toEqual({
    balanced: false,
    experiments: 3,
    held_usd: 1234.56,
    released_usd: 19.99,
    refunded_usd: 0.3,
    compensated_usd: 0.01,
    dispute_to_requester_usd: 0.1,
    dispute_to_operator_usd: 0.2,
    still_held_usd: 1213.95,
    violations: ["exp_00000000000000000000000002: held 100 != 99"],
  });
});

it("is staff only", async () => {
  const requester = identity.addAccount().secret;
  expect((await call("GET", "/admin/ledger", undefined, requester)).status).toBe(403);
  expect((await call("GET", "/admin/ledger", undefined, null)).status).toBe(401);
  expect(marketplace.calls).toHaveLength(0);
});
