/**
 * Idempotency-Key on CreateExperiment (Stripe semantics, docs/api.md#idempotency):
 * replay fidelity, a reused key with another body, concurrent duplicates across two
 * replicas, key hygiene, per-account scope, refused requests not stored, 24 h retention.
 */
import { toBinary } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { type CreateExperimentResponse, CreateExperimentResponseSchema } from "@petri/contracts/experiments";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ENGINES,
  type Experiments,
  bodies,
  experimentsOn,
  failure,
  json,
  jump,
  outboxEvents,
  requester,
  startExperiments,
} from "./support/harness.js";

const bytes = (response: CreateExperimentResponse) =>
  Buffer.from(toBinary(CreateExperimentResponseSchema, { ...response, replayed: false })).toString("hex");

describe.each(ENGINES)("idempotent creates on %s", (engine) => {
  const exp = experimentsOn(engine);
  let replica: Experiments;

  beforeAll(async () => {
    // A second replica on its own connection pool (PostgreSQL); on PGlite the same database.
    replica =
      engine === "pg" ? await startExperiments(await exp.backend.connection(), { clock: exp.clock }) : exp;
  });
  afterAll(async () => {
    if (replica !== exp) await replica?.stop();
  });

  async function countFor(accountId: string) {
    const { n } = await exp.db
      .selectFrom("experiments")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("requester_account_id", "=", accountId)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  it("replays the first response for the same key and body: same bytes, one row, one set of events", async () => {
    const me = requester();
    const request = { requestJson: json(bodies.open()), idempotencyKey: "key-replay-1" };
    const first = await exp.as(me).createExperiment(request);
    await jump(exp, 1_000);
    // Key order and whitespace do not make another request.
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(bodies.open()).reverse()), null, 2);
    const second = await exp.as(me).createExperiment({ ...request, requestJson: reordered });
    expect(first.replayed).toBe(false);
    expect(second.replayed).toBe(true);
    expect(bytes(second)).toBe(bytes(first));
    expect(second.experiment).toEqual(first.experiment);
    expect(await countFor(me.accountId)).toBe(1);
    expect(await outboxEvents(exp.db, first.experiment!.id)).toHaveLength(2);

    // The replay is the response as first given, even after the experiment changed.
    await exp.as(me).cancelExperiment({ experimentId: first.experiment!.id, reason: "changed my mind" });
    const third = await exp.as(me).createExperiment(request);
    expect(bytes(third)).toBe(bytes(first));
  });

  it("refuses the same key with another body (or draft flag) with 422 idempotency_key_reused", async () => {
    const me = requester();
    await exp.as(me).createExperiment({ requestJson: json(bodies.open()), idempotencyKey: "key-reuse" });
    const changed = bodies.open();
    (changed.constraints as Record<string, unknown>).budget_max_usd = 301;
    const refused = await failure(
      exp.as(me).createExperiment({ requestJson: json(changed), idempotencyKey: "key-reuse" }),
    );
    expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: "idempotency_key_reused" });
    const asDraft = await failure(
      exp.as(me).createExperiment({
        requestJson: json(bodies.open()),
        idempotencyKey: "key-reuse",
        saveAsDraft: true,
      }),
    );
    expect(asDraft.reason).toBe("idempotency_key_reused");
    expect(await countFor(me.accountId)).toBe(1);
  });

  it("10 concurrent creates with one key, over two replicas: one experiment, the rest replays or 409", async () => {
    const me = requester();
    const request = { requestJson: json(bodies.open()), idempotencyKey: "key-concurrent" };
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? exp : replica).as(me).createExperiment(request)),
    );
    const ok = results.filter(
      (r): r is PromiseFulfilledResult<CreateExperimentResponse> => r.status === "fulfilled",
    );
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(ok.filter((r) => !r.value.replayed)).toHaveLength(1);
    const original = ok.find((r) => !r.value.replayed)!.value;
    for (const r of ok) expect(bytes(r.value)).toBe(bytes(original));
    for (const r of failed) {
      const reason = (await failure(Promise.reject(r.reason))).reason;
      expect(reason).toBe("idempotency_request_in_progress");
    }
    expect(await countFor(me.accountId)).toBe(1);
    expect(await outboxEvents(exp.db, original.experiment!.id)).toHaveLength(2);
  });

  it("checks the key: 1..255 printable ASCII, else 422 and nothing written", async () => {
    const me = requester();
    for (const key of ["k".repeat(256), "tab\tkey", "naïve", "line\nbreak"]) {
      const refused = await failure(
        exp.as(me).createExperiment({ requestJson: json(bodies.open()), idempotencyKey: key }),
      );
      expect(refused.code).toBe(Code.InvalidArgument);
      expect(refused.violations).toEqual([
        expect.objectContaining({ field: "idempotency_key", code: "invalid_value" }),
      ]);
    }
    expect(await countFor(me.accountId)).toBe(0);
    const keys = await exp.db
      .selectFrom("idempotency_keys")
      .select("key")
      .where("principal", "=", me.accountId)
      .execute();
    expect(keys).toEqual([]);
    await expect(
      exp.as(me).createExperiment({ requestJson: json(bodies.open()), idempotencyKey: "k".repeat(255) }),
    ).resolves.toBeDefined();
  });

  it("scopes keys per account: another account's same key runs independently", async () => {
    const alice = requester("alice");
    const bob = requester("bob");
    const a = await exp
      .as(alice)
      .createExperiment({ requestJson: json(bodies.open()), idempotencyKey: "shared-key" });
    const b = await exp
      .as(bob)
      .createExperiment({ requestJson: json(bodies.custom()), idempotencyKey: "shared-key" });
    expect(b.replayed).toBe(false);
    expect(b.experiment!.id).not.toBe(a.experiment!.id);
    expect(b.experiment!.requesterAccountId).toBe(bob.accountId);
  });

  it("stores nothing for a refused request: a corrected retry with the same key runs", async () => {
    const me = requester();
    const invalid = { ...bodies.open(), experiment_type: "NOPE" };
    const refused = await failure(
      exp.as(me).createExperiment({ requestJson: json(invalid), idempotencyKey: "fix-me" }),
    );
    expect(refused.reason).toBe("validation_failed");
    const unsafe = { ...bodies.open(), compliance: { bsl: "BSL-3" } };
    expect(
      (await failure(exp.as(me).createExperiment({ requestJson: json(unsafe), idempotencyKey: "fix-me" })))
        .reason,
    ).toBe("safety_rejected");
    const fixed = await exp
      .as(me)
      .createExperiment({ requestJson: json(bodies.open()), idempotencyKey: "fix-me" });
    expect(fixed.replayed).toBe(false);
    expect(await countFor(me.accountId)).toBe(1);
  });

  it("keeps keys 24 hours: a reuse after that runs anew, and the sweep deletes expired keys", async () => {
    const me = requester();
    const request = { requestJson: json(bodies.open()), idempotencyKey: "expiring" };
    const keysOf = () =>
      exp.db.selectFrom("idempotency_keys").select("key").where("principal", "=", me.accountId).execute();
    const first = await exp.as(me).createExperiment(request);
    await jump(exp, 24 * 3600_000 - 1_000);
    expect((await exp.as(me).createExperiment(request)).replayed).toBe(true);
    await jump(exp, 2_000);
    const again = await exp.as(me).createExperiment(request);
    expect(again.replayed).toBe(false);
    expect(again.experiment!.id).not.toBe(first.experiment!.id);
    expect(await keysOf()).toHaveLength(1);

    // The sweep runs on the service's timer (every 10 minutes of its clock)...
    await jump(exp, 24 * 3600_000 + 1_000);
    for (let i = 0; i < 100 && (await keysOf()).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await keysOf()).toEqual([]);
    // ... and on demand.
    await exp.as(me).createExperiment({ ...request, idempotencyKey: "expiring-2" });
    await exp.db
      .updateTable("idempotency_keys")
      .set({ completed_at: new Date(exp.clock.now().getTime() - 24 * 3600_000 - 1) })
      .where("principal", "=", me.accountId)
      .execute();
    expect((await exp.service.prune()).idempotency_keys).toBeGreaterThanOrEqual(1);
    expect(await keysOf()).toEqual([]);
  });
});
