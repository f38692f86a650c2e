import { describe, expect, it } from "vitest";
import { authorizeAccount, isStaff } from "./account-audience.js";
import { ForbiddenError, UnauthenticatedError } from "./errors.js";
import type { Principal } from "./principal.js";

const as = (role: Principal["role"]): Principal => ({ accountId: `usr_${role}`, role, tier: "standard" });

describe("authorizeAccount", () => {
  it("lets every account through for 'account', staff only for 'staff'", () => {
    for (const role of ["requester", "operator", "staff"] as const)
      expect(authorizeAccount(as(role), "account").role).toBe(role);
    expect(authorizeAccount(as("staff"), "staff").role).toBe("staff");
    for (const role of ["requester", "operator"] as const)
      expect(() => authorizeAccount(as(role), "staff")).toThrow(ForbiddenError);
  });

  it("refuses the gateway's system principal and a missing one", () => {
    expect(() => authorizeAccount(as("system"), "account")).toThrow(ForbiddenError);
    expect(() => authorizeAccount(undefined, "account")).toThrow(UnauthenticatedError);
    expect(isStaff(as("staff"))).toBe(true);
    expect(isStaff(as("operator"))).toBe(false);
  });
});
