/**
 * Marketplace set-ups for the route tests on the real services, through the public API only:
 * staff calls, labs pending or verified, and a claim once the experiments service knows the lab.
 */
import { operatorProfile, verificationRecord } from "@petri/testkit";
import { expect } from "vitest";
import { type RealServicesScope, eventually } from "./real-services.js";
import { bodyOf } from "./requests.js";

export function marketplaceHelpers({ petri, call }: Pick<RealServicesScope, "petri" | "call">) {
  /** Calls as the bootstrapped staff account. */
  const asStaff = async (method: string, path: string, body?: unknown) =>
    call(method, path, body, null, { authorization: `Bearer ${await petri().staffToken()}` });

  /** A fresh account's lab, pending verification: its operator id and the account's key. */
  async function pendingLab(labName: string) {
    const { apiKey } = await petri().signUp({ tier: "pro" });
    const created = await call("POST", "/operator/profile", operatorProfile(labName), apiKey);
    expect(created.status).toBe(201);
    return { operatorId: (await bodyOf(created)).operator_id as string, apiKey };
  }

  /** A lab staff verified (`verification`, the testkit's record by default): active. */
  async function activeLab(labName: string, verification: object = verificationRecord()) {
    const lab = await pendingLab(labName);
    const verified = await asStaff("POST", `/admin/operators/${lab.operatorId}/verify`, verification);
    expect(verified.status).toBe(200);
    return lab;
  }

  /** Claims `experimentId` for `operatorKey` once the experiments service knows the lab (by event). */
  const claim = (operatorKey: string, experimentId: string, extra: object = {}) =>
    eventually(async () => {
      const answer = await call(
        "POST",
        `/operator/jobs/${experimentId}/claim`,
        {
          equipment_confirmation: true,
          authorization_confirmation: true,
          estimated_start_date: "2026-03-09",
          ...extra,
        },
        operatorKey,
      );
      return answer.status === 403 ? undefined : answer;
    }, `the claim of ${experimentId}`);

  return { asStaff, pendingLab, activeLab, claim };
}
