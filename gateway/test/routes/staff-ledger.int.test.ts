import { validRequests } from "@petri/fixtures";
import { expect, it } from "vitest";
import { marketplaceHelpers } from "../support/real-marketplace.js";
import { describeOnRealServices, eventually } from "../support/real-services.js";
import { bodyOf } from "../support/requests.js";

describeOnRealServices(
  "GET /admin/ledger on the real services",
  { start: "2026-03-02T10:00:00.000Z", source: "198.51.100.180" },
  (scope) => {
    const { call } = scope;
    const { asStaff } = marketplaceHelpers(scope);

    it("reports the conservation check in USD, over every experiment's escrow", async () => {
      const empty = await asStaff("GET", "/admin/ledger");
      expect(empty.status).toBe(200);
      expect(await bodyOf(empty)).toEqual({
        balanced: true,
        experiments: 0,
        held_usd: 0,
        released_usd: 0,
        refunded_usd: 0,
        compensated_usd: 0,
        dispute_to_requester_usd: 0,
        dispute_to_operator_usd: 0,
        still_held_usd: 0,
        violations: [],
      });

      const held: number[] = [];
      for (const request of [validRequests.MIC_MBC_ASSAY, validRequests.MIC_MBC_ASSAY]) {
        const posted = await bodyOf(await call("POST", "/experiments", request));
        held.push(posted.estimated_cost_usd);
      }
      const total = held[0]! + held[1]!;
      // The holds reach the marketplace by event.
      const ledger = await eventually(async () => {
        const body = await bodyOf(await asStaff("GET", "/admin/ledger"));
        return body.experiments === 2 ? body : undefined;
      }, "both holds in the ledger");
      expect(ledger).toEqual({
        balanced: true,
        experiments: 2,
        held_usd: total,
        released_usd: 0,
        refunded_usd: 0,
        compensated_usd: 0,
        dispute_to_requester_usd: 0,
        dispute_to_operator_usd: 0,
        still_held_usd: total,
        violations: [],
      });
    });

    it("is staff only", async () => {
      const requester = await call("GET", "/admin/ledger");
      expect(requester.status).toBe(403);
      expect((await bodyOf(requester)).error.details).toEqual({ required_roles: ["staff"] });
      const anonymous = await call("GET", "/admin/ledger", undefined, null);
      expect(anonymous.status).toBe(401);
      expect((await bodyOf(anonymous)).error.code).toBe("unauthorized");
    });
  },
);
