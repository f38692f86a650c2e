/**
 * Signing secrets (reliability test plan W8, W11, K8): shown once, per account, rotated with
 * a 24-hour overlap during which both signatures verify, sealed at rest under the KEK, and
 * never written to a log or a delivery table.
 */
import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import {
  type Backend,
  ENGINES,
  type Notifications,
  experiment,
  experimentEvent,
  rejection,
  requester,
  startNotifications,
  testKek,
} from "./support/harness.js";
import { notificationsOfBlock } from "./support/block.js";
import type { TestReceiver } from "./support/receiver.js";
import { verifyServiceSignature, verifyStandardSignature } from "./support/verify.js";

const HOUR = 60 * 60_000;

describe.each(ENGINES)("webhook signing secrets (%s)", (engine) => {
  let backend: Backend;
  let notifications: Notifications;
  let receiver: TestReceiver;
  const shown: string[] = [];
  notificationsOfBlock(engine, (block) => ({ notifications, receiver, backend } = block));

  async function deliverOne(accountId: string) {
    const fixture = experiment(accountId, `https://127.0.0.1:${receiver.port}/secrets`);
    await notifications.deliver(experimentEvent(fixture, "claimed"));
    await notifications.service.deliverDue();
    const row = await notifications.db
      .selectFrom("webhook_deliveries")
      .select("id")
      .where("experiment_id", "=", fixture.id)
      .executeTakeFirstOrThrow();
    const [request] = receiver.withId(row.id);
    return request!;
  }

  it("shows a new secret exactly once", async () => {
    const account = requester();
    const client = notifications.as(account);
    expect((await client.getWebhookSettings({})).settings?.secret).toBeUndefined();
    const created = await client.createWebhookSecret({});
    shown.push(created.secret);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), "base64")).toHaveLength(32);
    expect(created.info).toMatchObject({ revealed: true });
    const again = await rejection(client.createWebhookSecret({}));
    expect(again.code).toBe(Code.AlreadyExists);
    expect(again.rawMessage).toMatch(/already shown once; rotate/);
    expect((await client.getWebhookSettings({})).settings?.secret).toMatchObject({
      id: created.info!.id,
      revealed: true,
    });
  });

  it("signs an account's first delivery with a secret the account can then obtain once", async () => {
    const account = requester();
    const request = await deliverOne(account.accountId);
    const { secret } = await notifications.as(account).createWebhookSecret({});
    shown.push(secret);
    const now = Number(request.headers["webhook-timestamp"]);
    expect(verifyServiceSignature(secret, request.body, request.headers)).toBe(true);
    expect(verifyStandardSignature(secret, request.body, request.headers, now)).toBe(true);
  });

  it("W8: secrets differ per account; a rotation signs with both for 24 hours, then only the new one", async () => {
    const account = requester();
    const other = requester();
    const first = (await notifications.as(account).createWebhookSecret({})).secret;
    const foreign = (await notifications.as(other).createWebhookSecret({})).secret;
    shown.push(first, foreign);
    expect(first).not.toBe(foreign);

    const rotated = await notifications.as(account).rotateWebhookSecret({});
    shown.push(rotated.secret);
    expect(rotated.secret).not.toBe(first);
    const rotatedAt = notifications.clock.now().getTime();
    expect(rotated.info?.previousValidUntil && Number(rotated.info.previousValidUntil.seconds) * 1000).toBe(
      rotatedAt + 24 * HOUR,
    );

    const during = await deliverOne(account.accountId);
    const ts = Number(during.headers["webhook-timestamp"]);
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(String(during.headers["x-service-signature"]).split(", ")).toHaveLength(2);
    for (const secret of [first, rotated.secret]) {
      expect(verifyServiceSignature(secret, during.body, during.headers)).toBe(true);
      expect(verifyStandardSignature(secret, during.body, during.headers, ts)).toBe(true);
    }
    expect(verifyServiceSignature(foreign, during.body, during.headers)).toBe(false);
    expect(verifyStandardSignature(foreign, during.body, during.headers, ts)).toBe(false);

    await notifications.clock.set(rotatedAt + 24 * HOUR + 1);
    const after = await deliverOne(account.accountId);
    const later = Number(after.headers["webhook-timestamp"]);
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifyStandardSignature(rotated.secret, after.body, after.headers, later)).toBe(true);
    expect(verifyServiceSignature(rotated.secret, after.body, after.headers)).toBe(true);
    expect(verifyStandardSignature(first, after.body, after.headers, later)).toBe(false);
    expect(verifyServiceSignature(first, after.body, after.headers)).toBe(false);

    // Rotating twice within an overlap retires the oldest at once: never more than two sign.
    const second = await notifications.as(account).rotateWebhookSecret({});
    const third = await notifications.as(account).rotateWebhookSecret({});
    shown.push(second.secret, third.secret);
    const both = await deliverOne(account.accountId);
    const now = Number(both.headers["webhook-timestamp"]);
    expect(String(both.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifyStandardSignature(third.secret, both.body, both.headers, now)).toBe(true);
    expect(verifyStandardSignature(second.secret, both.body, both.headers, now)).toBe(true);
    expect(verifyStandardSignature(rotated.secret, both.body, both.headers, now)).toBe(false);
  });

  it("K8: the table holds only sealed secrets, each under a fresh nonce, tied to the KEK", async () => {
    const rows = await notifications.db.selectFrom("webhook_secrets").selectAll().execute();
    expect(rows.length).toBeGreaterThanOrEqual(shown.length);
    const nonces = new Set(rows.map((row) => Buffer.from(row.nonce).toString("hex")));
    expect(nonces.size).toBe(rows.length);
    for (const row of rows) {
      expect(row.kek_id).toMatch(/^kek_[0-9a-f]{16}$/);
      for (const secret of shown) {
        expect(Buffer.from(row.ciphertext).includes(Buffer.from(secret))).toBe(false);
        expect(Buffer.from(row.ciphertext).includes(Buffer.from(secret.slice(6), "base64"))).toBe(false);
      }
    }
    // A replica with another KEK refuses to start rather than sign with nothing.
    await expect(
      startNotifications(backend.database, { kek: testKek(), clock: notifications.clock }),
    ).rejects.toThrow(/sealed under key-encryption key kek_/);
  });

  it("W11: no secret appears in the logs, the delivery tables or the mail", async () => {
    expect(shown.length).toBeGreaterThan(5);
    const logs = notifications.logs.lines.join("\n");
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain("whsec_");
    const stored = JSON.stringify([
      await notifications.db.selectFrom("webhook_deliveries").selectAll().execute(),
      await notifications.db.selectFrom("webhook_attempts").selectAll().execute(),
      await notifications.db.selectFrom("mail_outbox").selectAll().execute(),
      await notifications.db.selectFrom("sent_mail").selectAll().execute(),
    ]);
    for (const secret of shown) {
      expect(logs).not.toContain(secret.slice(6));
      expect(stored).not.toContain(secret.slice(6));
    }
    expect(stored).not.toContain("whsec_");
  });
});
