import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Tier } from "@petri/contracts/identity";
import { ExperimentPaymentSchema, PostingEntrySchema, PostingSchema } from "@petri/contracts/marketplace";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { FakeMarketplace } from "../../../test/support/fake-marketplace.js";
import { caller } from "../../../test/support/requests.js";

const SOURCE = "198.51.100.150";

let marketplace: FakeMarketplace;
let accountId: string;
let call: ReturnType<typeof caller>;

beforeEach(async () => {
  const clock = new FakeClock("2026-03-02T10:00:00.000Z");
  const identity = await FakeIdentity.create(clock);
  marketplace = new FakeMarketplace(clock);
  const app = await gatewayWithServices(identity, { marketplace });
  const account = identity.addAccount({ tier: Tier.PRO });
  accountId = account.account.id;
  call = caller(app, SOURCE, () => account.secret);
});

const entry = (account: string, amountCents: bigint) => create(PostingEntrySchema, { account, amountCents });

describe("GET /experiments/{id}/payment", () => {
  it("gives the escrow in USD to the cent, with the postings", async () => {
    marketplace.payments.set("exp_00000000000000000000000001", {
      payment: create(ExperimentPaymentSchema, {
        experimentId: "exp_00000000000000000000000001",
        status: "partially_refunded",
        heldCents: 1999n,
        releasedCents: 0n,
        refundedCents: 1600n,
        compensatedCents: 399n,
        stillHeldCents: 0n,
        returnedToRequesterCents: 0n,
        paidToOperatorCents: 0n,
        version: 2n,
      }),
      postings: [
        create(PostingSchema, {
          kind: "hold",
          postedAt: timestampFromDate(new Date("2026-03-01T09:00:00Z")),
          entries: [entry("requester_funds", -1999n), entry("escrow:exp_00000000000000000000000001", 1999n)],
        }),
        create(PostingSchema, {
          kind: "refund",
          postedAt: timestampFromDate(new Date("2026-03-02T09:00:00Z")),
          entries: [entry("escrow:exp_00000000000000000000000001", -1600n), entry("requester_refund", 1600n)],
        }),
      ],
    });
    const response = await call("GET", "/experiments/exp_00000000000000000000000001/payment");
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(body).toEqual({
      experiment_id: "exp_00000000000000000000000001",
      status: "partially_refunded",
      held_usd: 19.99,
      released_usd: 0,
      refunded_usd: 16,
      compensated_usd: 3.99,
      returned_to_requester_usd: 0,
      paid_to_operator_usd: 0,
      still_held_usd: 0,
      postings: [
        {
          kind: "hold",
          posted_at: "2026-03-01T09:00:00.000Z",
          entries: [
            { account: "requester_funds", amount_usd: -19.99 },
            { account: "escrow:exp_00000000000000000000000001", amount_usd: 19.99 },
          ],
        },
        {
          kind: "refund",
          posted_at: "2026-03-02T09:00:00.000Z",
          entries: [
            { account: "escrow:exp_00000000000000000000000001", amount_usd: -16 },
            { account: "requester_refund", amount_usd: 16 },
          ],
        },
      ],
    });
    // Two decimals at most, never float noise.
    expect(JSON.stringify(body)).not.toMatch(/_usd":-?\d+\.\d{3,}/);
    expect(marketplace.calls[0]?.principal?.accountId).toBe(accountId);
  });

  it("an experiment that is not the caller's (or unknown) is 404", async () => {
    const response = await call("GET", "/experiments/exp_other/payment");
    expect(response.status).toBe(404);
    expect((await bodyOf(response)).error.code).toBe("not_found");
  });
});
