import { ForbiddenError, NotFoundError, type Principal, UnauthenticatedError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { assertCanRead, assertOwns, authorize, listedAccount } from "./authorization.js";

const requester: Principal = { accountId: "usr_a", role: "requester", tier: "standard" };
const other: Principal = { accountId: "usr_b", role: "operator", tier: "standard" };
const staff: Principal = { accountId: "usr_s", role: "staff", tier: "standard" };
const system: Principal = { accountId: "system:gateway", role: "system", tier: "standard" };
const delivery = { id: "msg_1", account_id: "usr_a" };

describe("webhook authorization", () => {
  it("admits accounts, and staff only to staff procedures", () => {
    expect(() => authorize(undefined, "account")).toThrow(UnauthenticatedError);
    expect(() => authorize(system, "account")).toThrow(ForbiddenError);
    expect(() => authorize(requester, "staff")).toThrow(ForbiddenError);
    expect(authorize(staff, "staff")).toBe(staff);
    expect(authorize(other, "account")).toBe(other);
  });

  it("hides another account's delivery and lets staff read but not act", () => {
    expect(() => assertCanRead(other, delivery)).toThrow(NotFoundError);
    expect(() => assertOwns(other, delivery)).toThrow(NotFoundError);
    expect(() => assertCanRead(staff, delivery)).not.toThrow();
    expect(() => assertOwns(staff, delivery)).toThrow(ForbiddenError);
    expect(() => assertOwns(requester, delivery)).not.toThrow();
  });

  it("lists another account's deliveries for staff only", () => {
    expect(listedAccount(requester, "")).toBe("usr_a");
    expect(listedAccount(requester, "usr_a")).toBe("usr_a");
    expect(() => listedAccount(requester, "usr_b")).toThrow(ForbiddenError);
    expect(listedAccount(staff, "usr_b")).toBe("usr_b");
  });
});
