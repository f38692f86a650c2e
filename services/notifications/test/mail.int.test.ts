/**
 * The pause e-mail through the SMTP adapter (nodemailer against a loopback SMTP server): sent
 * once to the account's address with a stable Message-ID, recorded in sent_mail, retried
 * while the address is unknown or the server is down.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SmtpMailer } from "../src/mail/smtp-mailer.js";
import {
  ENGINES,
  type Notifications,
  START,
  accountRegistered,
  experiment,
  experimentEvent,
  requester,
} from "./support/harness.js";
import { notificationsOfBlock } from "./support/block.js";
import type { TestReceiver } from "./support/receiver.js";
import { SmtpSink } from "./support/smtp-sink.js";

const MINUTE = 60_000;

describe.each(ENGINES)("the pause e-mail over SMTP (%s)", (engine) => {
  let notifications: Notifications;
  let receiver: TestReceiver;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await SmtpSink.start();
  });
  // Registered before the block's own hooks, so it runs after them: the sink closes last.
  afterAll(async () => {
    await sink?.close();
  });
  notificationsOfBlock(
    engine,
    (block) => {
      ({ notifications, receiver } = block);
      receiver.answer = () => ({ status: 500 });
    },
    () => ({
      mailer: new SmtpMailer({
        host: "127.0.0.1",
        port: sink.port,
        secure: false,
        from: "Petri <no-reply@petri.example>",
      }),
    }),
  );

  /** Runs an experiment event for the account through all five failing attempts (a pause). */
  async function pause(accountId: string, from: number): Promise<void> {
    await notifications.clock.set(from);
    const fixture = experiment(accountId, `https://127.0.0.1:${receiver.port}/mail`);
    await notifications.deliver(experimentEvent(fixture, "claimed"));
    for (const minutes of [0, 1, 6, 36, 156]) {
      await notifications.clock.set(from + minutes * MINUTE);
      await notifications.service.deliverDue();
    }
  }

  const outbox = (accountId: string) =>
    notifications.db.selectFrom("mail_outbox").selectAll().where("account_id", "=", accountId).execute();

  it("sends one message to the account's address and records it", async () => {
    const account = requester();
    await notifications.deliver(accountRegistered(account.accountId, "grace@example.org"));
    await pause(account.accountId, START.getTime());
    expect(await notifications.service.dispatchMail()).toBe(1);
    expect(await notifications.service.dispatchMail()).toBe(0);
    const [queued] = await outbox(account.accountId);
    const mine = sink.messages.filter((message) => message.to.includes("<grace@example.org>"));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.from).toBe("<no-reply@petri.example>");
    expect(mine[0]!.data).toContain("Subject: Petri: webhook deliveries paused");
    expect(mine[0]!.data).toContain(`Message-ID: <${queued!.id}@petri.example>`);
    const [sent] = await notifications.db
      .selectFrom("sent_mail")
      .selectAll()
      .where("account_id", "=", account.accountId)
      .execute();
    expect(sent).toMatchObject({
      transport: "smtp",
      to_address: "grace@example.org",
      message_id: `<${queued!.id}@petri.example>`,
    });
  });

  it("waits for an unknown address, then sends once", async () => {
    const account = requester();
    const from = START.getTime() + 10 * 60 * MINUTE;
    await pause(account.accountId, from);
    const pausedAt = notifications.clock.now().getTime();
    expect(await notifications.service.dispatchMail()).toBe(1);
    let [queued] = await outbox(account.accountId);
    expect(queued).toMatchObject({ status: "pending", attempts: 1 });
    expect(queued!.last_error).toMatch(/no e-mail address known/);
    expect(queued!.next_attempt_at.getTime()).toBe(pausedAt + MINUTE);

    await notifications.deliver(accountRegistered(account.accountId, "late@example.org"));
    await notifications.clock.set(pausedAt + MINUTE);
    expect(await notifications.service.dispatchMail()).toBe(1);
    [queued] = await outbox(account.accountId);
    expect(queued).toMatchObject({ status: "sent", attempts: 2 });
    expect(sink.messages.filter((message) => message.to.includes("<late@example.org>"))).toHaveLength(1);
  });
});
