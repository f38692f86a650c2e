import { validRequests } from "@petri/fixtures";
import { verificationRecord } from "@petri/testkit";
import { expect, it } from "vitest";
import { marketplaceHelpers } from "../support/real-marketplace.js";
import { describeOnRealServices, eventually } from "../support/real-services.js";
import { bodyOf } from "../support/requests.js";

describeOnRealServices(
  "GET /experiments/{id}/matches on the real services",
  { start: "2026-03-02T10:00:00.000Z", source: "198.51.100.140" },
  (scope) => {
    const { call, otherKey } = scope;
    const { activeLab, asStaff, pendingLab } = marketplaceHelpers(scope);

    /** An experiment of the caller's, once the marketplace ranks `labs` labs for it (by event). */
    async function rankedExperiment(labs: number) {
      const posted = await bodyOf(await call("POST", "/experiments", validRequests.MIC_MBC_ASSAY));
      const id = posted.experiment_id as string;
      await eventually(async () => {
        const body = await bodyOf(await call("GET", `/experiments/${id}/matches?limit=100`));
        return body.labs?.length >= labs ? true : undefined;
      }, `${labs} labs ranked for ${id}`);
      return id;
    }

    it("ranks the labs; failed_filters only for an ineligible lab", async () => {
      const one = await activeLab("Lab One");
      // Verified for another experiment type than the one it declares.
      const two = await activeLab("Lab Two", {
        ...verificationRecord(),
        competencies_verified: ["QPCR_EXPRESSION"],
      });
      await pendingLab("Lab Pending");
      const id = await rankedExperiment(1);
      const response = await call("GET", `/experiments/${id}/matches`);
      expect(response.status).toBe(200);
      const body = await bodyOf(response);
      // The requester: eligible labs only, without their operator ids or a failed_filters key.
      expect(body).toEqual({
        labs: [
          {
            operator_id: "",
            lab_name: "Lab One",
            score: expect.any(Number),
            components: {
              capability: expect.any(Number),
              turnaround: expect.any(Number),
              cost: expect.any(Number),
              quality: expect.any(Number),
            },
            eligible: true,
          },
        ],
        operator_availability: expect.stringMatching(/^(low|medium|high)$/),
      });
      // Staff: every active lab, the ineligible ones after, with the hard filters they fail.
      const staff = await bodyOf(await asStaff("GET", `/experiments/${id}/matches`));
      expect(staff.labs).toEqual([
        { ...body.labs[0], operator_id: one.operatorId },
        {
          operator_id: two.operatorId,
          lab_name: "Lab Two",
          score: expect.any(Number),
          components: expect.any(Object),
          eligible: false,
          failed_filters: ["competency"],
        },
      ]);
    });

    it("passes ?limit on, bounded 1-100; another account's or an unknown experiment is 404", async () => {
      await activeLab("Lab Three");
      await activeLab("Lab Four");
      const id = await rankedExperiment(2);
      const one = await bodyOf(await call("GET", `/experiments/${id}/matches?limit=1`));
      expect(one.labs).toHaveLength(1);
      for (const query of ["limit=0", "limit=101", "limit=-1"]) {
        const refused = await call("GET", `/experiments/${id}/matches?${query}`);
        expect(refused.status, query).toBe(422);
        expect((await bodyOf(refused)).error.code).toBe("validation_failed");
      }
      for (const [key, path] of [
        [otherKey(), id],
        [undefined, "exp_zzzzzzzzzzzzzzzzzzzzzzzzzz"],
      ] as const) {
        const missing = await call("GET", `/experiments/${path}/matches`, undefined, key);
        expect(missing.status, path).toBe(404);
        expect((await bodyOf(missing)).error.code).toBe("not_found");
      }
    });
  },
);
