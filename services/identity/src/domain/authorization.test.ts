import { ForbiddenError, type Principal, UnauthenticatedError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { type Audience, authorize } from "./authorization.js";

const as = (role: Principal["role"]): Principal => ({ accountId: `usr_${role}`, role, tier: "standard" });
const roles = ["requester", "operator", "staff", "system"] as const;

const allowed: Record<Exclude<Audience, "public">, ReadonlyArray<Principal["role"]>> = {
  account: ["requester", "operator", "staff"],
  staff: ["staff"],
  system: ["system"],
};

describe("authorize", () => {
  it("lets anyone (or no one) through to public procedures", () => {
    expect(authorize(undefined, "public")).toBeUndefined();
    for (const role of roles) expect(authorize(as(role), "public")?.role).toBe(role);
  });

  for (const [audience, roleList] of Object.entries(allowed) as [
    Exclude<Audience, "public">,
    Principal["role"][],
  ][]) {
    it(`${audience}: needs a principal and allows exactly ${roleList.join(", ")}`, () => {
      expect(() => authorize(undefined, audience)).toThrow(UnauthenticatedError);
      for (const role of roles) {
        if (roleList.includes(role)) expect(authorize(as(role), audience).role).toBe(role);
        else expect(() => authorize(as(role), audience)).toThrow(ForbiddenError);
      }
    });
  }
});
