import { Role, Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { FakeNotifications } from "../../../test/support/fake-notifications.js";
import { caller } from "../../../test/support/requests.js";

const SOURCE = "198.51.100.190";
const NOW = "2026-03-02T10:00:00.000Z";

let identity: FakeIdentity;
let notifications: FakeNotifications;
let staffId: string;
let call: ReturnType<typeof caller>;

beforeEach(async () => {
  const clock = new FakeClock(NOW);
  identity = await FakeIdentity.create(clock);
  notifications = new FakeNotifications(clock);
  const app = await gatewayWithServices(identity, { notifications });
  const staff = identity.addAccount({ role: Role.STAFF, tier: Tier.PRO });
  staffId = staff.account.id;
  call = caller(app, SOURCE, () => staff.secret);
});

describe("staff notifications operations", () => {
  it("are staff only: requesters and operators get 403 without a call", async () => {
    for (const role of [Role.REQUESTER, Role.OPERATOR]) {
      const key = identity.addAccount({ role }).secret;
      for (const path of ["/admin/notifications/mail", "/admin/webhooks/deliveries?account_id=usr_a"]) {
        const response = await call("GET", path, undefined, key);
        expect(response.status, path).toBe(403);
        expect((await bodyOf(response)).error.details).toEqual({ required_roles: ["staff"] });
      }
    }
    expect(notifications.calls).toHaveLength(0);
  });

  it("GET /admin/notifications/mail lists sent e-mail newest first, by account, in bounded pages", async () => {
    const first = notifications.addMail("usr_a", "Webhook deliveries paused");
    const second = notifications.addMail("usr_b", "Webhook deliveries paused");
    const response = await call("GET", "/admin/notifications/mail?limit=1");
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({
      mails: [
        {
          mail_id: second.id,
          account_id: "usr_b",
          to: "usr_b@example.org",
          subject: "Webhook deliveries paused",
          text: "Webhook deliveries paused\n\nResume them with POST /webhooks/resume.",
          kind: "webhooks_paused",
          transport: "table",
          message_id: null,
          sent_at: NOW,
        },
      ],
      pagination: { total: 2, cursor: "c1", has_more: true },
    });
    expect(notifications.last("ListSentMail")).toEqual(
      expect.objectContaining({ accountId: "", limit: 1, cursor: "" }),
    );
    expect(notifications.calls[0]?.principal).toMatchObject({ accountId: staffId, role: "staff" });

    const forA = await bodyOf(await call("GET", "/admin/notifications/mail?account_id=usr_a"));
    expect(forA.mails.map((mail: any) => mail.mail_id)).toEqual([first.id]);
    expect(notifications.last("ListSentMail")).toMatchObject({ accountId: "usr_a", limit: 20 });

    for (const query of ["limit=0", "limit=101", "account_id=", "cursor="]) {
      expect((await call("GET", `/admin/notifications/mail?${query}`)).status, query).toBe(422);
    }
    expect(notifications.count("ListSentMail")).toBe(2);
  });

  it("GET /admin/webhooks/deliveries reads the named account's log with its filters", async () => {
    const delivery = notifications.addDelivery("usr_a", "exp_1", { status: "succeeded" });
    notifications.addDelivery("usr_a", "exp_2");
    notifications.addDelivery("usr_b", "exp_3");
    const response = await call(
      "GET",
      "/admin/webhooks/deliveries?account_id=usr_a&experiment_id=exp_1&status=succeeded&limit=10",
    );
    expect(response.status).toBe(200);
    const page = await bodyOf(response);
    expect(page.deliveries.map((d: any) => [d.delivery_id, d.account_id])).toEqual([[delivery.id, "usr_a"]]);
    expect(page.pagination).toEqual({ total: 1, cursor: null, has_more: false });
    expect(notifications.last("ListWebhookDeliveries")).toMatchObject({
      accountId: "usr_a",
      experimentId: "exp_1",
      status: "succeeded",
      limit: 10,
      cursor: "",
    });
    expect(notifications.calls[0]?.principal).toMatchObject({ accountId: staffId, role: "staff" });
  });

  it("GET /admin/webhooks/deliveries needs the account and valid bounds (422 without a call)", async () => {
    const missing = await call("GET", "/admin/webhooks/deliveries");
    expect(missing.status).toBe(422);
    expect((await bodyOf(missing)).error.details.errors).toEqual([
      { field: "account_id", path: "account_id", code: "missing_required", message: "required" },
    ]);
    for (const query of [
      "account_id=usr_a&limit=0",
      "account_id=usr_a&limit=101",
      "account_id=usr_a&status=x",
    ]) {
      expect((await call("GET", `/admin/webhooks/deliveries?${query}`)).status, query).toBe(422);
    }
    expect(notifications.calls).toHaveLength(0);
  });
});
