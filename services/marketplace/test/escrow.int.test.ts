/**
 * The escrow ledger driven by the experiments events on the bus: every lifecycle ending
 * (approval, cancellation from each status, disputes before and after approval with each
 * outcome, hold adjustments), replays and reordering that never move money twice, a wrong
 * cancellation amount dead-lettered, the payment-provider calls and PaymentUpdated events, and
 * conservation after every scenario. PostgreSQL and PGlite.
 */
import { Code } from "@connectrpc/connect";
import { ExperimentStatus } from "@petri/contracts/experiments";
import { afterEach, describe, expect, it } from "vitest";
import { conservation } from "../src/db/ledger-audit.js";
import { providerCallsOf } from "../src/db/provider-calls.js";
import {
  ENGINES,
  ExperimentStory,
  failure,
  marketplaceOn,
  outboxEvents,
  republished,
  requester,
  staff,
} from "./support/harness.js";
import { expectHeldCentsAccountedFor } from "./support/ledger-checks.js";

const HOLD = 123_457;
const OP = "op_escrowlab";

describe.each(ENGINES)("escrow on %s", (engine) => {
  const m = marketplaceOn(engine);
  const admin = staff();

  afterEach(async () => {
    const report = await conservation(m.db);
    expect(report.violations).toEqual([]);
    expectHeldCentsAccountedFor(report);
    expect(report.heldCents).toBe(
      report.returnedToRequesterCents + report.paidToOperatorCents + report.stillHeldCents,
    );
  });

  const owner = requester();
  const story = (hold = HOLD) => new ExperimentStory(owner.accountId, { hold }, m.clock);

  async function payment(s: ExperimentStory, as = owner) {
    return m.as(as).getExperimentPayment({ experimentId: s.id });
  }

  async function paymentEvents(s: ExperimentStory) {
    return (await outboxEvents(m.db, s.id))
      .filter((e) => e.subject === "petri.marketplace.payment_updated")
      .map((e) => ({
        version: e.version,
        kind: e.payload.kind as string,
        status: e.payload.payment.status as string,
      }));
  }

  /** Submitted, claimed by OP and (with `started`) in progress and delivered. */
  async function delivered(s: ExperimentStory) {
    await m.deliver(...s.submit(), ...s.claim(OP), ...s.start(), ...s.submitResults());
  }

  it("open -> approve: held, then released to the operator, through the provider", async () => {
    const s = story();
    await m.deliver(...s.submit());
    expect((await payment(s)).payment).toMatchObject({
      status: "held",
      heldCents: BigInt(HOLD),
      stillHeldCents: BigInt(HOLD),
    });
    await delivered(s);
    await m.deliver(...s.approve({ rating: 5 }));
    const { payment: p, postings } = await payment(s);
    expect(p).toMatchObject({
      status: "released",
      heldCents: BigInt(HOLD),
      releasedCents: BigInt(HOLD),
      stillHeldCents: 0n,
      paidToOperatorCents: BigInt(HOLD),
      version: 2n,
    });
    expect(postings.map((x) => [x.kind, x.entries.map((e) => [e.account, e.amountCents])])).toEqual([
      [
        "hold",
        [
          [`escrow:${s.id}`, BigInt(HOLD)],
          ["requester_funds", BigInt(-HOLD)],
        ],
      ],
      [
        "release",
        [
          [`escrow:${s.id}`, BigInt(-HOLD)],
          [`operator_payable:${OP}`, BigInt(HOLD)],
        ],
      ],
    ]);
    expect(await paymentEvents(s)).toEqual([
      { version: 1, kind: "hold", status: "held" },
      { version: 2, kind: "release", status: "released" },
    ]);
    const calls = await providerCallsOf(m.db, s.id);
    expect(calls.map((c) => [c.method, c.amountCents, c.providerReference.startsWith("sbx_")])).toEqual([
      ["authorizeHold", HOLD, true],
      ["capture", HOLD, true],
    ]);
  });

  it.each([
    ["open", 0, HOLD, 0, "refunded"],
    ["claimed", 1, HOLD - 24_691, 24_691, "partially_refunded"],
    ["in_progress", 2, 0, HOLD, "released"],
  ] as const)(
    "%s -> cancel: refund and compensation as announced",
    async (_from, steps, refund, compensation, status) => {
      const s = story();
      await m.deliver(...s.submit());
      if (steps >= 1) await m.deliver(...s.claim(OP));
      if (steps >= 2) await m.deliver(...s.start());
      await m.deliver(...s.cancel(refund, compensation));
      const { payment: p } = await payment(s);
      expect(p).toMatchObject({
        status,
        refundedCents: BigInt(refund),
        compensatedCents: BigInt(compensation),
        stillHeldCents: 0n,
        returnedToRequesterCents: BigInt(refund),
        paidToOperatorCents: BigInt(compensation),
      });
      const methods = (await providerCallsOf(m.db, s.id)).map((c) => c.method);
      expect(methods).toEqual(
        ["authorizeHold", refund > 0 ? "refund" : null, compensation > 0 ? "capture" : null].filter(Boolean),
      );
    },
  );

  it.each([
    ["requester", HOLD, 0],
    ["operator", 0, HOLD],
    ["split", 23_457, 100_000],
  ] as const)(
    "dispute before approval, for the %s: the escrow is split as decided",
    async (outcome, toRequester, toOperator) => {
      const s = story();
      await delivered(s);
      await m.deliver(...s.raiseDispute());
      expect((await payment(s)).payment?.status).toBe("disputed");
      await m.deliver(...s.resolve(outcome, toRequester, toOperator));
      expect((await payment(s)).payment).toMatchObject({
        status: "resolved",
        stillHeldCents: 0n,
        releasedCents: 0n,
        returnedToRequesterCents: BigInt(toRequester),
        paidToOperatorCents: BigInt(toOperator),
      });
      expect((await paymentEvents(s)).map((e) => e.kind)).toEqual(["hold", "dispute_resolution"]);
    },
  );

  it.each([
    ["requester", HOLD, 0, ["hold", "release", "dispute_resolution"]],
    ["operator", 0, HOLD, ["hold", "release"]],
    ["split", 3_457, 120_000, ["hold", "release", "dispute_resolution"]],
  ] as const)(
    "dispute after approval, for the %s: the requester's share is clawed back from the operator",
    async (outcome, toRequester, toOperator, kinds) => {
      const s = story();
      await delivered(s);
      await m.deliver(...s.approve());
      await m.deliver(...s.raiseDispute());
      expect((await payment(s)).payment?.status).toBe("disputed");
      await m.deliver(...s.resolve(outcome, toRequester, toOperator));
      const { payment: p, postings } = await payment(s);
      expect(p).toMatchObject({
        releasedCents: BigInt(HOLD),
        returnedToRequesterCents: BigInt(toRequester),
        paidToOperatorCents: BigInt(toOperator),
        stillHeldCents: 0n,
      });
      expect(postings.map((x) => x.kind)).toEqual(kinds);
    },
  );

  it("a dispute resolved after approval waits for the approval's release when events are reordered", async () => {
    const s = story();
    await delivered(s);
    const approved = s.approve();
    const disputed = s.raiseDispute();
    const resolved = s.resolve("requester", HOLD, 0);
    await m.publish(...resolved, ...disputed);
    await m.settled(...disputed);
    expect((await payment(s)).postings.map((x) => x.kind)).toEqual(["hold"]);
    // The resolution is retried after a backoff and finds the release.
    await m.deliver(...approved);
    await m.settled(...resolved);
    expect((await payment(s)).postings.map((x) => x.kind)).toEqual(["hold", "release", "dispute_resolution"]);
    expect((await payment(s)).payment).toMatchObject({
      releasedCents: BigInt(HOLD),
      returnedToRequesterCents: BigInt(HOLD),
    });
  });

  it("hold adjustments follow re-estimates, ignore stale ones, and the approval releases the adjusted hold", async () => {
    const s = story(10_000);
    await m.deliver(...s.submit());
    const raise = s.update(12_500);
    const lower = s.update(9_000);
    const unchanged = s.update(9_000);
    const raiseAgain = s.update(11_000);
    // The newest arrives first; older ones arrive late and must not move the hold back.
    await m.deliver(...raiseAgain);
    await m.deliver(...lower, ...raise, ...unchanged);
    expect((await payment(s)).payment).toMatchObject({ heldCents: 11_000n, stillHeldCents: 11_000n });
    const moreRecent = s.update(11_500);
    await m.deliver(...moreRecent, republished(moreRecent[0]!), republished(raise[0]!));
    const { payment: p, postings } = await payment(s);
    expect(p).toMatchObject({ heldCents: 11_500n, version: 3n });
    expect(postings.map((x) => x.kind)).toEqual(["hold", "hold_adjustment", "hold_adjustment"]);
    expect((await providerCallsOf(m.db, s.id)).map((c) => [c.method, c.amountCents])).toEqual([
      ["authorizeHold", 10_000],
      ["authorizeHold", 1_000],
      ["authorizeHold", 500],
    ]);

    const lowered = story(10_000);
    await m.deliver(...lowered.submit(), ...lowered.update(7_000));
    expect((await providerCallsOf(m.db, lowered.id)).map((c) => [c.method, c.amountCents])).toEqual([
      ["authorizeHold", 10_000],
      ["reduceHold", 3_000],
    ]);

    await delivered(s);
    await m.deliver(...s.approve());
    expect((await payment(s)).payment).toMatchObject({ releasedCents: 11_500n, stillHeldCents: 0n });
  });

  it("replayed events never move money twice", async () => {
    const s = story();
    const envelopes = [...s.submit(), ...s.claim(OP), ...s.start(), ...s.submitResults(), ...s.approve()];
    await m.deliver(...envelopes);
    const before = await payment(s);
    const effective = m.provider.calls.filter((c) => !c.replayed).length;
    // The same events again: once under their own ids (the inbox absorbs them) and once under
    // new ids, as a relay re-publishing beyond the bus's dedupe window would.
    await m.deliver(...envelopes.map(republished));
    for (const envelope of envelopes) await m.bus.publish(envelope);
    await m.deliver(...envelopes.map(republished));
    expect(await payment(s)).toEqual(before);
    expect(m.provider.calls.filter((c) => !c.replayed).length).toBe(effective);
    expect((await paymentEvents(s)).map((e) => e.kind)).toEqual(["hold", "release"]);
  });

  it("an approval that arrives before the hold is retried until the hold is recorded", async () => {
    const s = story();
    const submitted = s.submit();
    const approved = [...s.claim(OP), ...s.start(), ...s.submitResults(), ...s.approve()];
    await m.publish(...approved);
    expect(
      await m.db.selectFrom("ledger_postings").selectAll().where("experiment_id", "=", s.id).execute(),
    ).toEqual([]);
    await m.deliver(...submitted);
    await m.settled(...approved);
    expect((await payment(s)).payment).toMatchObject({ status: "released", releasedCents: BigInt(HOLD) });
    const dead = await m.db
      .selectFrom("dead_letters")
      .select("event_id")
      .where(
        "event_id",
        "in",
        approved.map((e) => e.id),
      )
      .execute();
    expect(dead).toEqual([]);
  });

  it("a cancellation whose amounts do not match the hold is dead-lettered and moves nothing", async () => {
    const s = story(10_000);
    await m.deliver(...s.submit());
    const [wrong] = s.cancel(10_000, 1_000);
    await m.deliver(wrong!);
    const dead = await m.db
      .selectFrom("dead_letters")
      .select(["consumer", "reason", "attempts"])
      .where("event_id", "=", wrong!.id)
      .execute();
    expect(dead).toEqual([
      {
        consumer: "marketplace-ledger",
        reason: expect.stringContaining("refund 10000 + compensation 1000 != held 10000"),
        attempts: 5,
      },
    ]);
    expect((await payment(s)).payment).toMatchObject({ stillHeldCents: 10_000n, refundedCents: 0n });
    // The job projection is a separate consumer and kept up to date.
    const job = await m.db
      .selectFrom("jobs")
      .select("status")
      .where("experiment_id", "=", s.id)
      .executeTakeFirst();
    expect(job?.status).toBe("cancelled");
  });

  it("payments are for the requester and staff only; CheckLedger is staff's", async () => {
    const s = story();
    await m.deliver(...s.submit(ExperimentStatus.PENDING_REVIEW));
    expect((await payment(s, admin)).payment?.status).toBe("held");
    expect((await failure(payment(s, requester()))).code).toBe(Code.NotFound);
    expect((await failure(m.as(owner).getExperimentPayment({ experimentId: "exp_unknown" }))).code).toBe(
      Code.NotFound,
    );
    expect((await failure(m.as(owner).checkLedger({}))).code).toBe(Code.PermissionDenied);

    const report = await m.as(admin).checkLedger({});
    expect(report).toMatchObject({ balanced: true, violations: [] });
    expect(report.experiments).toBeGreaterThan(0n);
    expectHeldCentsAccountedFor(report);
  });
});
