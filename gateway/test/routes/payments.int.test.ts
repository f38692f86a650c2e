import { validRequests } from "@petri/fixtures";
import { expect, it } from "vitest";
import { marketplaceHelpers } from "../support/real-marketplace.js";
import { describeOnRealServices, eventually } from "../support/real-services.js";
import { bodyOf } from "../support/requests.js";

describeOnRealServices(
  "GET /experiments/{id}/payment on the real services",
  { start: "2026-03-02T10:00:00.000Z", source: "198.51.100.150" },
  (scope) => {
    const { call, clock, otherKey } = scope;
    const { activeLab, claim } = marketplaceHelpers(scope);

    /**
     * The caller's experiment's payment once the marketplace holds its escrow. Both arrive by
     * event, the experiment (then "not_held") before or after its hold.
     */
    const paymentOf = (experimentId: string, key?: string) =>
      eventually(async () => {
        const answer = await call("GET", `/experiments/${experimentId}/payment`, undefined, key);
        if (answer.status === 404) return undefined;
        const body = await bodyOf(answer);
        return body.status === "not_held" ? undefined : { status: answer.status, body };
      }, `the escrow of ${experimentId}`);

    it("gives the escrow in USD, with the postings; after a claimed cancel, the refund and compensation", async () => {
      const lab = await activeLab("Payments Lab");
      const posted = await call("POST", "/experiments", validRequests.MIC_MBC_ASSAY);
      expect(posted.status).toBe(201);
      const { experiment_id: id, estimated_cost_usd: held } = await bodyOf(posted);
      const postedAt = clock.now().toISOString();

      const response = await paymentOf(id);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        experiment_id: id,
        status: "held",
        held_usd: held,
        released_usd: 0,
        refunded_usd: 0,
        compensated_usd: 0,
        returned_to_requester_usd: 0,
        paid_to_operator_usd: 0,
        still_held_usd: held,
        postings: [
          {
            kind: "hold",
            posted_at: postedAt,
            entries: expect.arrayContaining([
              { account: "requester_funds", amount_usd: -held },
              { account: `escrow:${id}`, amount_usd: held },
            ]),
          },
        ],
      });

      expect((await claim(lab.apiKey, id)).status).toBe(200);
      await clock.advance(60_000);
      const cancelled = await call("DELETE", `/experiments/${id}`, { reason: "funding moved" });
      expect(cancelled.status).toBe(200);
      const settled = await eventually(async () => {
        const body = await bodyOf(await call("GET", `/experiments/${id}/payment`));
        return body.status === "held" ? undefined : body;
      }, "the settlement");
      // A claimed experiment cancelled: the operator keeps 20 % of the hold (the experiments
      // service's CLAIMED_OPERATOR_COMPENSATION_BPS).
      const compensated = Math.round(held * 20) / 100;
      expect(settled).toMatchObject({
        status: "partially_refunded",
        held_usd: held,
        refunded_usd: held - compensated,
        compensated_usd: compensated,
        still_held_usd: 0,
      });
      expect(settled.postings.map((p: any) => p.kind)).toEqual(["hold", "refund", "compensation"]);
      expect(settled.postings[1]).toEqual({
        kind: "refund",
        posted_at: clock.now().toISOString(),
        entries: expect.arrayContaining([{ account: `escrow:${id}`, amount_usd: -(held - compensated) }]),
      });
      // Two decimals at most, never float noise.
      expect(JSON.stringify(settled)).not.toMatch(/_usd":-?\d+\.\d{3,}/);
    });

    it("an experiment that is not the caller's (or unknown) is 404", async () => {
      const theirs = await bodyOf(
        await call("POST", "/experiments", validRequests.MIC_MBC_ASSAY, otherKey()),
      );
      // Theirs is held (their own read finds it), and still 404 to the caller.
      expect((await paymentOf(theirs.experiment_id, otherKey())).status).toBe(200);
      for (const id of [theirs.experiment_id, "exp_other"]) {
        const response = await call("GET", `/experiments/${id}/payment`);
        expect(response.status, id).toBe(404);
        expect((await bodyOf(response)).error.code).toBe("not_found");
      }
    });
  },
);
