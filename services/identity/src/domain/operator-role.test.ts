import { describe, expect, it } from "vitest";
import { roleForOperatorStatus } from "./operator-role.js";

describe("roleForOperatorStatus", () => {
  it.each([
    ["requester", "active", "operator"],
    ["requester", "paused", "operator"],
    ["operator", "active", "operator"],
    ["operator", "suspended", "requester"],
    ["operator", "rejected", "requester"],
    ["operator", "pending_verification", "requester"],
    ["requester", "pending_verification", "requester"],
    ["requester", "suspended", "requester"],
    ["staff", "active", "staff"],
    ["staff", "suspended", "staff"],
  ] as const)("%s with a lab %s becomes %s", (current, status, expected) => {
    expect(roleForOperatorStatus(current, status)).toBe(expected);
  });
});
