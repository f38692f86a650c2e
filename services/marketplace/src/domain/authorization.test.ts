import { ForbiddenError, type Principal, UnauthenticatedError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { authorize, canSeeExperiment } from "./authorization.js";

const as = (role: Principal["role"], accountId = "usr_1"): Principal => ({
  accountId,
  role,
  tier: "standard",
});

describe("authorize", () => {
  it("lets accounts in and keeps staff operations for staff", () => {
    for (const role of ["requester", "operator", "staff"] as const)
      expect(authorize(as(role), "account").role).toBe(role);
    expect(authorize(as("staff"), "staff").role).toBe("staff");
    expect(() => authorize(as("operator"), "staff")).toThrow(ForbiddenError);
    expect(() => authorize(as("requester"), "staff")).toThrow(ForbiddenError);
  });

  it("refuses the gateway's system principal and anonymous calls", () => {
    expect(() => authorize(as("system"), "account")).toThrow(ForbiddenError);
    expect(() => authorize(undefined, "account")).toThrow(UnauthenticatedError);
  });

  it("an experiment's things are visible to its requester and staff only", () => {
    expect(canSeeExperiment(as("requester", "usr_a"), "usr_a")).toBe(true);
    expect(canSeeExperiment(as("staff", "usr_s"), "usr_a")).toBe(true);
    expect(canSeeExperiment(as("operator", "usr_b"), "usr_a")).toBe(false);
  });
});
