import { NotificationsService } from "@petri/contracts/notifications";
import { describe, expect, it } from "vitest";
import { NOTIFICATIONS_AUDIENCES } from "./audiences.js";

describe("NotificationsService audiences", () => {
  it("name every procedure of the contract, and only those", () => {
    const procedures = NotificationsService.methods.map((method) => method.localName).sort();
    expect(Object.keys(NOTIFICATIONS_AUDIENCES).sort()).toEqual(procedures);
  });

  it("keep the sent-mail log for staff", () => {
    expect(NOTIFICATIONS_AUDIENCES.listSentMail).toBe("staff");
  });
});
