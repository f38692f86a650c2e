import { FakeClock } from "@petri/testkit";
import { describe, expect, it } from "vitest";
import { type SignedUp, realServicesAvailable, realServicesOfBlock } from "../support/real-services.js";
import { notificationsOf, receiverOfBlock, webhookHelpers } from "../support/real-webhooks.js";
import { bodyOf } from "../support/requests.js";

const SOURCE = "198.51.100.190";

describe.skipIf(!(await realServicesAvailable()))(
  "staff notifications operations on the real services",
  () => {
    const clock = new FakeClock("2026-03-02T10:00:00.000Z");
    const receiver = receiverOfBlock();
    // first and second: accounts whose deliveries were paused, in that order (each got the e-mail).
    const accounts: Record<"first" | "second", SignedUp | undefined> = {
      first: undefined,
      second: undefined,
    };
    const paused: Partial<
      Record<"first" | "second", { experimentId: string; deliveryId: string; at: string }>
    > = {};
    const { running, call } = realServicesOfBlock({
      source: SOURCE,
      key: () => accounts.first!.apiKey,
      start: () => ({ clock, services: receiver().serviceSettings() }),
      prepare: async (petri) => {
        receiver().answer("/down", 500);
        for (const name of ["first", "second"] as const) {
          const account = await petri.signUp({ tier: "pro" });
          accounts[name] = account;
          const delivery = await hooks.claimedDelivery(account.apiKey, `${receiver().origin}/down`);
          await hooks.failUntilPaused(account.apiKey, delivery.deliveryId);
          await notificationsOf(petri).dispatchMail();
          paused[name] = { ...delivery, at: clock.now().toISOString() };
          await clock.advance(1000);
        }
      },
    });
    const asStaff = async (method: string, path: string) =>
      call(method, path, undefined, null, { authorization: `Bearer ${await running().staffToken()}` });
    const hooks = webhookHelpers({ petri: running, call, clock });

    it("are staff only: requesters and operators get 403", async () => {
      const operator = await hooks.activeLab("Curious Lab");
      for (const key of [accounts.first!.apiKey, operator.apiKey]) {
        for (const path of [
          "/admin/notifications/mail",
          `/admin/webhooks/deliveries?account_id=${accounts.second!.accountId}`,
        ]) {
          const response = await call("GET", path, undefined, key);
          expect(response.status, path).toBe(403);
          expect((await bodyOf(response)).error.details).toEqual({ required_roles: ["staff"] });
        }
      }
    });

    it("GET /admin/notifications/mail lists sent e-mail newest first, by account, in bounded pages", async () => {
      const response = await asStaff("GET", "/admin/notifications/mail?limit=1");
      expect(response.status).toBe(200);
      const page = await bodyOf(response);
      const { second } = paused;
      expect(page).toEqual({
        mails: [
          {
            mail_id: expect.stringMatching(/^mail_/),
            account_id: accounts.second!.accountId,
            to: accounts.second!.email,
            subject: "Petri: webhook deliveries paused",
            text: expect.stringContaining(
              `Delivery id (webhook-id): ${second!.deliveryId}. Paused at ${second!.at}.`,
            ),
            kind: "webhooks_paused",
            transport: "table",
            message_id: null,
            sent_at: second!.at,
          },
        ],
        pagination: { total: 2, cursor: expect.any(String), has_more: true },
      });
      expect(page.mails[0].text).toContain("POST /webhooks/resume");

      const next = await bodyOf(
        await asStaff(
          "GET",
          `/admin/notifications/mail?limit=1&cursor=${encodeURIComponent(page.pagination.cursor)}`,
        ),
      );
      expect(next.mails.map((mail: any) => mail.account_id)).toEqual([accounts.first!.accountId]);
      expect(next.pagination.has_more).toBe(false);

      const forFirst = await bodyOf(
        await asStaff("GET", `/admin/notifications/mail?account_id=${accounts.first!.accountId}`),
      );
      expect(forFirst.mails).toEqual([
        expect.objectContaining({ to: accounts.first!.email, sent_at: paused.first!.at }),
      ]);
      expect(forFirst.mails[0].mail_id).toBe(next.mails[0].mail_id);

      for (const query of ["limit=0", "limit=101", "account_id=", "cursor="]) {
        const refused = await asStaff("GET", `/admin/notifications/mail?${query}`);
        expect(refused.status, query).toBe(422);
        expect((await bodyOf(refused)).error.code).toBe("validation_failed");
      }
    });

    it("GET /admin/webhooks/deliveries reads the named account's log with its filters", async () => {
      const { first, second } = paused;
      const response = await asStaff(
        "GET",
        `/admin/webhooks/deliveries?account_id=${accounts.first!.accountId}&experiment_id=${first!.experimentId}&status=paused&limit=10`,
      );
      expect(response.status).toBe(200);
      const page = await bodyOf(response);
      expect(page.deliveries.map((d: any) => [d.delivery_id, d.account_id])).toEqual([
        [first!.deliveryId, accounts.first!.accountId],
      ]);
      expect(page.pagination).toEqual({ total: 1, cursor: null, has_more: false });
      // The filters hold: another status, or another account's experiment, lists nothing.
      for (const query of [
        `account_id=${accounts.first!.accountId}&status=succeeded`,
        `account_id=${accounts.first!.accountId}&experiment_id=${second!.experimentId}`,
      ]) {
        expect(
          (await bodyOf(await asStaff("GET", `/admin/webhooks/deliveries?${query}`))).deliveries,
          query,
        ).toEqual([]);
      }
    });

    it("GET /admin/webhooks/deliveries needs the account and valid bounds (422)", async () => {
      const missing = await asStaff("GET", "/admin/webhooks/deliveries");
      expect(missing.status).toBe(422);
      expect((await bodyOf(missing)).error.details.errors).toEqual([
        { field: "account_id", path: "account_id", code: "missing_required", message: "required" },
      ]);
      const accountId = accounts.first!.accountId;
      for (const query of [
        `account_id=${accountId}&limit=0`,
        `account_id=${accountId}&limit=101`,
        `account_id=${accountId}&status=x`,
      ]) {
        expect((await asStaff("GET", `/admin/webhooks/deliveries?${query}`)).status, query).toBe(422);
      }
    });
  },
);
