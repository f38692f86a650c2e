import { ForbiddenError, type Principal, UnauthenticatedError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { authorize, ownsHypothesis } from "./authorization.js";

const as = (role: Principal["role"], accountId = "usr_1"): Principal => ({
  accountId,
  role,
  tier: "standard",
});

describe("authorization", () => {
  it("lets every account in, never the gateway's system principal or anonymous calls", () => {
    for (const role of ["requester", "operator", "staff"] as const)
      expect(authorize(as(role), "account").role).toBe(role);
    expect(() => authorize(as("system"), "account")).toThrow(ForbiddenError);
    expect(() => authorize(undefined, "account")).toThrow(UnauthenticatedError);
  });

  it("a hypothesis is its owner's only, staff included", () => {
    expect(ownsHypothesis(as("requester", "usr_a"), { ownerAccountId: "usr_a" })).toBe(true);
    expect(ownsHypothesis(as("staff", "usr_s"), { ownerAccountId: "usr_a" })).toBe(false);
  });
});
