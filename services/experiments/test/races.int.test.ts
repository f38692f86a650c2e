/**
 * Races on the marketplace state machine, on real PostgreSQL with several experiments
 * replicas, each on its own connection pool (an in-process mutex or one pool could hide a
 * bug):
 *
 * - C1: N (2..64, from fast-check) verified operators claim one experiment at once: exactly
 *   one succeeds, N-1 get 409 experiment_already_claimed, one ExperimentClaimed is recorded.
 * - C2: a deterministic interleaving: the experiment row is held locked until both claims
 *   wait on it (pg_stat_activity), then released: the second UPDATE finds no open row.
 * - C3: approve and dispute sent together on the same reading: exactly one wins, and exactly
 *   one of ResultsApproved / ExperimentDisputed is in the outbox.
 * - One operator with capacity 1 claiming two experiments through two replicas at once.
 */
import { Code } from "@connectrpc/connect";
import { ExperimentStatus } from "@petri/contracts/experiments";
import type { Database } from "@petri/db";
import { FakeClock } from "@petri/testkit";
import fc from "fast-check";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertEligibilityIfNewer } from "../src/db/operator-eligibility.js";
import type { ExperimentsDb } from "../src/db/schema.js";
import { FIXTURE_NOW } from "@petri/fixtures";
import {
  Backend,
  ENGINES,
  type Experiments,
  failure,
  outboxEvents,
  startExperiments,
} from "./support/harness.js";
import { CLAIM, openExperiment, submittedExperiment } from "./support/loop.js";
import { type VerifiedOperator, eligibilityOf } from "./support/marketplace.js";

const REPLICAS = 4;
const MAX_CLAIMERS = 64;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(ENGINES.includes("pg"))("races on PostgreSQL across replicas", () => {
  let backend: Backend;
  let replicas: Experiments[];
  let operators: VerifiedOperator[];
  let observer: Database;

  beforeAll(async () => {
    backend = await Backend.open("pg");
    const clock = new FakeClock(FIXTURE_NOW);
    replicas = [];
    for (let i = 0; i < REPLICAS; i += 1)
      replicas.push(
        await startExperiments(i === 0 ? backend.database : await backend.connection(), { clock }),
      );
    observer = await backend.connection();
    // The claimers' snapshots go straight into the projection (projections.int.test.ts covers the consumer).
    operators = Array.from({ length: MAX_CLAIMERS }, () => {
      const eligibility = eligibilityOf({ maxConcurrentJobs: 10_000 });
      return {
        eligibility,
        principal: {
          accountId: eligibility.accountId,
          role: "operator" as const,
          tier: "standard" as const,
          operatorId: eligibility.operatorId,
        },
      };
    });
    for (const { eligibility } of operators)
      await upsertEligibilityIfNewer(
        replicas[0]!.db,
        {
          ...eligibility,
          experimentTypes: [...eligibility.experimentTypes],
          equipment: [...eligibility.equipment],
          vacations: [],
          version: Number(eligibility.version),
        },
        clock.now(),
      );
  }, 60_000);

  afterAll(async () => {
    for (const replica of replicas ?? []) await replica.stop();
    await backend?.close();
  });

  const db = () => replicas[0]!.db;

  async function claimedEvents(experimentId: string) {
    return (await outboxEvents(db(), experimentId)).filter(
      (e) => e.subject === "petri.experiments.experiment_claimed",
    );
  }

  /** Holds the experiment's row locked until `waiters` sessions wait for a lock, then commits. */
  async function holdRowUntilBlocked(experimentId: string, waiters: number, started: () => Promise<unknown>) {
    const locker = observer.forSchema<ExperimentsDb>("experiments");
    let work: Promise<unknown> | undefined;
    await locker.transaction().execute(async (trx) => {
      await trx.selectFrom("experiments").select("id").where("id", "=", experimentId).forUpdate().execute();
      work = started();
      await waitForLockWaiters(backend.database.root, waiters);
    });
    return work!;
  }

  it("C1: exactly one of N concurrent claims wins; the others get experiment_already_claimed", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: MAX_CLAIMERS }),
        fc.array(fc.integer({ min: 0, max: 20 }), { minLength: MAX_CLAIMERS, maxLength: MAX_CLAIMERS }),
        async (n, skews) => {
          const { experiment } = await openExperiment(replicas[0]!);
          const outcomes = await Promise.allSettled(
            operators.slice(0, n).map(async (operator, i) => {
              await sleep(skews[i]!);
              return replicas[i % REPLICAS]!.as(operator.principal).claimExperiment({
                experimentId: experiment.id,
                ...CLAIM,
              });
            }),
          );
          const won = outcomes.filter((o) => o.status === "fulfilled");
          expect(won).toHaveLength(1);
          for (const lost of outcomes.filter((o) => o.status === "rejected")) {
            const refused = await failure(Promise.reject((lost as PromiseRejectedResult).reason));
            expect(refused).toMatchObject({ code: Code.AlreadyExists, reason: "experiment_already_claimed" });
          }
          const rows = await db()
            .selectFrom("experiments")
            .select(["status", "operator_id"])
            .where("id", "=", experiment.id)
            .executeTakeFirstOrThrow();
          expect(rows.status).toBe("claimed");
          const winner = (
            won[0] as PromiseFulfilledResult<{ experiment?: { operator?: { operatorId: string } } }>
          ).value;
          expect(rows.operator_id).toBe(winner.experiment!.operator!.operatorId);
          expect(await claimedEvents(experiment.id)).toHaveLength(1);
        },
      ),
      { numRuns: 12 },
    );
  }, 180_000);

  it("C2: two claims waiting on the row: the first UPDATE wins, the second finds no open row (409, no deadlock)", async () => {
    const { experiment } = await openExperiment(replicas[0]!);
    const claims = await holdRowUntilBlocked(experiment.id, 2, async () =>
      Promise.allSettled(
        [operators[0]!, operators[1]!].map((operator, i) =>
          replicas[i]!.as(operator.principal).claimExperiment({ experimentId: experiment.id, ...CLAIM }),
        ),
      ),
    );
    const outcomes = (await claims) as PromiseSettledResult<unknown>[];
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const lost = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    const refused = await failure(Promise.reject(lost.reason));
    expect(refused).toMatchObject({ code: Code.AlreadyExists, reason: "experiment_already_claimed" });
    expect(refused.details).toEqual({ status: "claimed", allowed_from: ["open"] });
    expect(await claimedEvents(experiment.id)).toHaveLength(1);
  });

  it("C3: approve and dispute on the same reading: exactly one wins, with exactly one event", async () => {
    for (let trial = 0; trial < 6; trial += 1) {
      const { requester: me, experiment } = await submittedExperiment(replicas[trial % REPLICAS]!);
      const decisions = await holdRowUntilBlocked(experiment.id, 2, async () =>
        Promise.allSettled([
          replicas[0]!.as(me).approveResults({ experimentId: experiment.id, rating: 4 }),
          replicas[1]!.as(me).disputeResults({
            experimentId: experiment.id,
            reason: "results_incomplete",
            description: "The raw data of the third replicate is missing.",
          }),
        ]),
      );
      const [approve, dispute] = (await decisions) as PromiseSettledResult<unknown>[];
      expect([approve!.status, dispute!.status].filter((s) => s === "fulfilled")).toHaveLength(1);
      const loser = (approve!.status === "rejected" ? approve : dispute) as PromiseRejectedResult;
      const refused = await failure(Promise.reject(loser.reason));
      // An approval that finds the experiment disputed is invalid_state; a dispute that finds it
      // approved meanwhile is a retryable conflict (a dispute of the approved results is a new decision).
      expect([Code.FailedPrecondition, Code.Aborted]).toContain(refused.code);

      const subjects = (await outboxEvents(db(), experiment.id)).map((e) => e.subject);
      const decided = subjects.filter(
        (s) => s === "petri.experiments.results_approved" || s === "petri.experiments.experiment_disputed",
      );
      expect(decided).toHaveLength(1);
      const status = (await replicas[2]!.as(me).getExperiment({ experimentId: experiment.id })).experiment!
        .status;
      expect(status).toBe(
        approve!.status === "fulfilled" ? ExperimentStatus.COMPLETED : ExperimentStatus.DISPUTED,
      );
      const disputes = await db()
        .selectFrom("disputes")
        .select("id")
        .where("experiment_id", "=", experiment.id)
        .execute();
      expect(disputes).toHaveLength(dispute!.status === "fulfilled" ? 1 : 0);
    }
  }, 120_000);

  it("capacity 1: one operator's two concurrent claims through two replicas, exactly one succeeds", async () => {
    const eligibility = eligibilityOf({ maxConcurrentJobs: 1 });
    await upsertEligibilityIfNewer(
      db(),
      {
        ...eligibility,
        experimentTypes: [...eligibility.experimentTypes],
        equipment: [...eligibility.equipment],
        vacations: [],
        version: 1,
      },
      new Date(),
    );
    const principal = {
      accountId: eligibility.accountId,
      role: "operator" as const,
      tier: "standard" as const,
      operatorId: eligibility.operatorId,
    };
    for (let trial = 0; trial < 5; trial += 1) {
      const a = await openExperiment(replicas[0]!);
      const b = await openExperiment(replicas[0]!);
      const outcomes = await Promise.allSettled([
        replicas[1]!.as(principal).claimExperiment({ experimentId: a.experiment.id, ...CLAIM }),
        replicas[2]!.as(principal).claimExperiment({ experimentId: b.experiment.id, ...CLAIM }),
      ]);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      const lost = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
      expect((await failure(Promise.reject(lost.reason))).details.failed_filters).toEqual(["capacity"]);
      // Free the slot for the next trial: the winner is cancelled by its requester.
      const won = outcomes[0]!.status === "fulfilled" ? a : b;
      await replicas[0]!
        .as(won.requester)
        .cancelExperiment({ experimentId: won.experiment.id, reason: "trial over" });
    }
  }, 60_000);
});

/** Polls pg_stat_activity until `count` sessions of this database wait for a lock. */
async function waitForLockWaiters(root: Kysely<any>, count: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(root);
    if ((rows[0]?.n ?? 0) >= count) return;
    if (Date.now() > deadline)
      throw new Error(`fewer than ${count} sessions waited for a lock within ${timeoutMs} ms`);
    await sleep(5);
  }
}
