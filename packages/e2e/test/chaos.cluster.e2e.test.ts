/**
 * Chaos through deploy/local with a three-node JetStream cluster (issue 15, item 5): under a
 * steady, bounded load through both gateways (writers posting, claiming and starting
 * experiments, each requester with a webhook on a receiver on 127.0.0.1), kill -9 one NATS
 * node (the JetStream meta leader), then one experiments replica, then one gateway, and
 * restart each as it was started. Requests that fail while a process is down are counted, not
 * asserted; every acknowledged (2xx) write must hold afterwards: the experiment is in at
 * least the acknowledged state, every event of what happened to it reached notifications and
 * its webhook arrived, every approval's escrow was released, no consumer gave up on an event
 * (no dead letter), and the escrow ledger balances. The checks' reads ride out the accounts'
 * rate limits (a 429 is asked again after its Retry-After). Prints the figures.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  type ExperimentsTarget,
  micRequest,
  newRequester,
  staffClient,
} from "./experiments.scenarios.js";
import {
  CLAIM,
  claimWhenKnown,
  eventually,
  newVerifiedOperator,
  resultsBody,
} from "./marketplace.scenarios.js";
import { STAFF, clusterInfraReady, startClusterHost } from "./support/hosts.js";
import { killHard, restart, waitFor } from "./support/processes.js";
import { WebhookReceiver } from "./support/webhook-receiver.js";

const WRITERS = 3;
/** Upper bound of experiments per writer: the load stops earlier, when the kills are done. */
const MAX_ROUNDS = 60;
/** Pause between a writer's rounds: keeps every account under the 100 requests a minute. */
const ROUND_PAUSE_MS = 1_500;
/** Acknowledged rounds to see after each kill and after each restart before going on. */
const ROUNDS_BETWEEN_STEPS = 3;
const SETTLE_MS = 120_000;

/** What happens to an experiment, in order; the spec's webhook event of each step. */
const STEPS = ["open", "claimed", "in_progress", "pending_approval", "completed"] as const;
type Status = (typeof STEPS)[number];
const EVENT_OF: Partial<Record<Status, string>> = {
  claimed: "claimed",
  in_progress: "started",
  pending_approval: "completed",
  completed: "approved",
};
/** Asks of one read after the load before its answer (a 429 or no answer) is taken as it is. */
const READ_ATTEMPTS = 4;
/** Attempts of one step before the round gives up on its experiment. */
const STEP_ATTEMPTS = 5;

interface Tracked {
  id: string;
  requester: Client;
  /** The last state a 2xx answer confirmed. */
  acknowledged: Status;
  /** The furthest state a write was sent for (it may have been applied without an answer). */
  attempted: Status;
}

class Figures {
  attempted = 0;
  acknowledged = 0;
  failed = new Map<string, number>();
  fail(reason: string) {
    this.failed.set(reason, (this.failed.get(reason) ?? 0) + 1);
  }
}

/**
 * One write: 2xx is acknowledged; anything else (a status or no answer) is a recorded failure,
 * counted by what was written and why (status and error code, or the connection error).
 */
async function write(figures: Figures, what: string, send: () => ReturnType<Client["call"]>) {
  figures.attempted += 1;
  try {
    const answer = await send();
    if (answer.status >= 200 && answer.status < 300) {
      figures.acknowledged += 1;
      return answer;
    }
    figures.fail(`${what} ${answer.status} ${answer.body?.error?.code ?? ""}`.trim());
  } catch (error) {
    figures.fail(`${what} ${(error as { cause?: { code?: string } }).cause?.code ?? "no answer"}`);
  }
  return undefined;
}

describe.skipIf(!(await clusterInfraReady()))(
  "chaos: kill -9 of a NATS node, an experiments replica and a gateway under load (three-node JetStream)",
  { timeout: 420_000 },
  () => {
    let host: Awaited<ReturnType<typeof startClusterHost>>;
    let target: ExperimentsTarget;
    let receiver: WebhookReceiver;
    /** Reads after the load asked again after a 429 or no answer (readChecked). */
    let readsAskedAgain = 0;

    beforeAll(async () => {
      host = await startClusterHost("chaos", { natsNodes: 3 });
      target = { baseUrls: host.baseUrls, staff: STAFF };
      receiver = await WebhookReceiver.start();
    }, 360_000);

    afterAll(async () => {
      await receiver?.close();
      await host?.stop();
    }, 120_000);

    it("loses no acknowledged write, event, webhook or cent", async () => {
      const staff = await staffClient(target);
      const writers = await Promise.all(
        Array.from({ length: WRITERS }, async (_, w) => {
          const requester = await newRequester(target, `chaos-requester-${w}`);
          const secret = await requester.call("POST", "/webhooks/secret");
          expect(secret.status, secret.text).toBe(201);
          const { client: operator } = await newVerifiedOperator(target, staff, `chaos-lab-${w}`);
          return { requester, operator };
        }),
      );
      // Each operator's claim waits until the experiments service knows the operator.
      for (const { requester, operator } of writers) {
        const id = await postOne(requester);
        expect((await claimWhenKnown(operator, id)).status).toBe(200);
      }

      await checkStreamsReplicated();

      const figures = new Figures();
      const tracked: Tracked[] = [];
      let stop = false;
      let rounds = 0;
      const load = writers.map(async ({ requester, operator }) => {
        for (let round = 0; round < MAX_ROUNDS && !stop; round += 1) {
          await oneRound(figures, tracked, requester, operator);
          rounds += 1;
          await new Promise((resolve) => setTimeout(resolve, ROUND_PAUSE_MS));
        }
      });
      const roundsPass = async (what: string) => {
        const from = rounds;
        const passed = await waitFor(() => rounds >= from + ROUNDS_BETWEEN_STEPS, 60_000);
        if (!passed) throw new Error(`the load made no progress ${what}`);
      };

      const kills: string[] = [];
      const killAndRestart = async (label: string, logFile: string, ready: () => Promise<boolean>) => {
        const launch = await killHard(pidsFileOf(label), label);
        kills.push(label);
        await roundsPass(`while ${label} was down`);
        restart(pidsFileOf(label), label, launch, logFile);
        if (!(await waitFor(ready, 60_000))) throw new Error(`${label} did not come back`);
        await roundsPass(`after ${label} came back`);
      };

      try {
        await roundsPass("before the first kill");
        const leader = await metaLeader();
        await killAndRestart(`nats-${leader}`, `${host.state}/nats/${leader}/nats.log`, () =>
          answers(`${host.natsMonitorUrls[leader - 1]}/healthz`),
        );
        // Replica 1 of experiments listens on base+11 (deploy/local), behind gateway 1.
        await killAndRestart("experiments-1", `${host.state}/logs/experiments-1.log`, () =>
          answers(`http://127.0.0.1:${host.portBase + 11}/readyz`),
        );
        await killAndRestart("gateway-1", `${host.state}/logs/gateway-1.log`, () =>
          answers(`${host.baseUrls[1]}/health`),
        );
      } finally {
        stop = true;
      }
      await Promise.all(load);

      // Every acknowledged write holds, and nothing went further than what was sent.
      const lost: string[] = [];
      const completedIds = new Set<string>();
      const expected = new Map<string, { experiment: string; event: string; requester: Client }>();
      for (const t of tracked) {
        const got = await eventually(`experiment ${t.id}`, async () => {
          const answer = await readChecked(t.requester, `/experiments/${t.id}`);
          return answer.status === 200 ? answer : undefined;
        });
        const status = got.body.status as Status;
        if (status === "completed") completedIds.add(t.id);
        const rank = STEPS.indexOf(status);
        if (rank < STEPS.indexOf(t.acknowledged) || rank > STEPS.indexOf(t.attempted)) {
          lost.push(`${t.id}: ${status}, acknowledged ${t.acknowledged}, attempted ${t.attempted}`);
        }
        for (const step of STEPS.slice(1, rank + 1)) {
          const event = EVENT_OF[step]!;
          expected.set(`${t.id} ${event}`, { experiment: t.id, event, requester: t.requester });
        }
      }

      // Every event of what happened reached notifications (its delivery log) and the receiver.
      const missing = () =>
        [...expected.entries()].filter(
          ([, e]) => !receiver.forExperiment(e.experiment).some((hook) => hook.json.event === e.event),
        );
      await waitFor(() => missing().length === 0, SETTLE_MS);
      const undelivered: string[] = [];
      const deliveryLogs = new Map<string, Awaited<ReturnType<Client["call"]>>>();
      for (const [key, e] of expected) {
        if (!deliveryLogs.has(e.experiment)) {
          const path = `/experiments/${e.experiment}/webhook-deliveries?limit=100`;
          deliveryLogs.set(e.experiment, await readChecked(e.requester, path));
        }
        const log = deliveryLogs.get(e.experiment)!;
        const delivery = (log.body?.deliveries ?? []).find(
          (d: { event: string; status: string }) => d.event === e.event,
        );
        const arrived = receiver.received.some(
          (hook) => delivery && hook.headers["webhook-id"] === delivery.webhook_id,
        );
        if (delivery?.status !== "succeeded" || !arrived)
          undelivered.push(`${key}: ${delivery?.status ?? "none"}`);
      }
      const distinctHooks = new Set(receiver.received.map((hook) => hook.headers["webhook-id"])).size;

      // Every approval released its escrow: the marketplace's ledger posted it and the
      // experiment shows it (PaymentUpdated came back), then the whole ledger balances.
      const completed = tracked.filter((t) => completedIds.has(t.id));
      // Released stays released: each pass reads only the approvals not yet seen released.
      const released = new Set<string>();
      const unpaid = async () => {
        const left: string[] = [];
        for (const t of completed.filter(({ id }) => !released.has(id))) {
          const got = await readChecked(t.requester, `/experiments/${t.id}`);
          if (got.body?.payment?.status === "released") released.add(t.id);
          else left.push(`${t.id}: ${got.status} ${JSON.stringify(got.body?.payment ?? got.body?.error)}`);
        }
        // A pass a second at the most while some are pending, to spare the accounts' limits.
        if (left.length > 0) await new Promise((resolve) => setTimeout(resolve, 1_000));
        return left;
      };
      let stillUnpaid: string[] = [];
      await waitFor(async () => (stillUnpaid = await unpaid()).length === 0, SETTLE_MS);
      const notReleased = await whyUnpaid(stillUnpaid, tracked);
      // An event given up on holds back what depends on it until staff replay it: none may be.
      const deadLetters = await staff.call("GET", "/admin/dead-letters?limit=100");
      const ledger = await staff.call("GET", "/admin/ledger");
      const failures = [...figures.failed].map(([reason, n]) => `${reason}: ${n}`).join(", ");
      console.log(
        `[chaos] kills ${kills.join(", ")} | writes attempted ${figures.attempted}, acknowledged ` +
          `${figures.acknowledged}, failed ${figures.attempted - figures.acknowledged} (${failures || "none"}), ` +
          `lost ${lost.length} | experiments ${tracked.length} | events expected ${expected.size}, ` +
          `delivered ${expected.size - undelivered.length} | webhooks received ${receiver.received.length} ` +
          `(${distinctHooks} distinct) | ledger balanced ${ledger.body?.balanced}, held ${ledger.body?.held_usd} USD, ` +
          `released ${ledger.body?.released_usd} USD (${completed.length - notReleased.length}/${completed.length} approvals), still held ${ledger.body?.still_held_usd} USD | ` +
          `dead letters ${deadLetters.body?.dead_letters?.length} | reads asked again ${readsAskedAgain}`,
      );

      expect(lost).toEqual([]);
      expect(undelivered).toEqual([]);
      expect(notReleased).toEqual([]);
      expect(deadLetters.status, deadLetters.text).toBe(200);
      expect(deadLetters.body.dead_letters.map(describeDeadLetter)).toEqual([]);
      expect(ledger.status, ledger.text).toBe(200);
      expect(ledger.body.violations).toEqual([]);
      expect(ledger.body.balanced).toBe(true);
      expect(figures.acknowledged).toBeGreaterThan(0);
    });

    /**
     * Each unreleased approval (the experiment's status and payment) with the marketplace's own
     * view of its escrow (status and postings): which side of the PaymentUpdated round trip
     * fell short.
     */
    async function whyUnpaid(left: string[], tracked: readonly Tracked[]): Promise<string[]> {
      const explained: string[] = [];
      for (const line of left) {
        const id = line.split(":")[0]!;
        const owner = tracked.find((t) => t.id === id)!.requester;
        const ledger = await readChecked(owner, `/experiments/${id}/payment`);
        const postings = (ledger.body?.postings ?? []).map((p: { kind: string }) => p.kind).join(",");
        const escrow = ledger.body?.status ?? ledger.body?.error?.code;
        explained.push(`${line}; marketplace: ${ledger.status} ${escrow} [${postings}]`);
      }
      return explained;
    }

    /**
     * A read of the checks after the load. Each account may make 100 requests a minute, which
     * the load and these checks together can exceed: a 429 says nothing of the experiment, so
     * the read waits out its Retry-After (bounded) and asks again. A read without an answer
     * (a connection refused or reset) is asked again too.
     */
    async function readChecked(client: Client, path: string): ReturnType<Client["call"]> {
      for (let attempt = 1; ; attempt += 1) {
        const answer = await client.call("GET", path).catch((error: Error) => error);
        const retryAfterMs =
          answer instanceof Error
            ? 1_000
            : answer.status === 429
              ? Number(answer.headers.get("retry-after") ?? "1") * 1_000 + 100
              : 0;
        if (retryAfterMs === 0) return answer as Awaited<ReturnType<Client["call"]>>;
        readsAskedAgain += 1;
        if (attempt >= READ_ATTEMPTS) {
          if (answer instanceof Error) throw answer;
          return answer;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfterMs, 61_000)));
      }
    }

    function describeDeadLetter(d: Record<string, unknown>): string {
      return `${d.service} ${d.consumer} ${d.type} ${d.status} after ${d.attempts}: ${d.reason}`;
    }

    function pidsFileOf(label: string): string {
      return label.startsWith("nats-") ? `${host.state}/nats/pids` : `${host.state}/pids`;
    }

    async function postOne(requester: Client): Promise<string> {
      const created = await requester.call("POST", "/experiments", experimentBody());
      expect(created.status, created.text).toBe(201);
      return created.body.experiment_id as string;
    }

    function experimentBody() {
      return {
        ...micRequest("Chaos MIC"),
        communication_preferences: {
          webhook_url: `${receiver.url}/hooks/chaos`,
          notification_events: Object.values(EVENT_OF),
          preferred_contact: "webhook",
        },
      };
    }

    /**
     * Post, claim, start, submit results, approve (so the operator stays under its
     * max_concurrent_jobs and the escrow is released). A step without a 2xx is sent again
     * (bounded), unless the experiment already shows it done: an attempt was applied without
     * its answer arriving, and the server has now confirmed the state. A step that still fails
     * ends the round; its experiment stays where it is.
     */
    async function oneRound(figures: Figures, tracked: Tracked[], requester: Client, operator: Client) {
      const created = await write(figures, "post", () =>
        requester.call("POST", "/experiments", experimentBody()),
      );
      if (!created) return;
      const id = created.body.experiment_id as string;
      const t: Tracked = { id, requester, acknowledged: "open", attempted: "open" };
      tracked.push(t);
      const steps: [Status, string, () => ReturnType<Client["call"]>][] = [
        ["claimed", "claim", () => operator.call("POST", `/operator/jobs/${id}/claim`, CLAIM)],
        ["in_progress", "start", () => operator.call("POST", `/operator/jobs/${id}/start`)],
        [
          "pending_approval",
          "submit",
          () => operator.call("POST", `/operator/jobs/${id}/submit`, resultsBody()),
        ],
        ["completed", "approve", () => requester.call("POST", `/experiments/${id}/approve`, { rating: 5 })],
      ];
      // Reads on a client of their own: the writer's turn then alternates between the gateways
      // on every attempt, instead of a read and a write always landing on the same two.
      const reader = new Client(target, requester.credentials, requester.accountId);
      for (const [status, what, send] of steps) {
        t.attempted = status;
        let done = false;
        for (let attempt = 0; attempt < STEP_ATTEMPTS && !done; attempt += 1) {
          if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, ROUND_PAUSE_MS));
          const answer = await write(figures, what, send);
          done = answer !== undefined || (await alreadyAt(reader, id, status));
        }
        if (!done) return;
        t.acknowledged = status;
      }
    }

    /** The server says the experiment is at `status` or beyond. */
    async function alreadyAt(reader: Client, id: string, status: Status): Promise<boolean> {
      try {
        const got = await reader.call("GET", `/experiments/${id}`);
        return got.status === 200 && STEPS.indexOf(got.body.status) >= STEPS.indexOf(status);
      } catch {
        return false;
      }
    }

    /** Every stream and durable consumer of this deployment has three copies, one per node. */
    async function checkStreamsReplicated() {
      const jsz = await fetchJson(
        `${host.natsMonitorUrls[0]}/jsz?accounts=true&streams=true&consumers=true&config=true`,
      );
      const streams = (jsz.account_details ?? []).flatMap((account) => account.stream_detail ?? []);
      expect(streams.length).toBeGreaterThan(0);
      for (const stream of streams) {
        expect(stream.config.num_replicas, stream.name).toBe(3);
        expect(stream.cluster?.replicas ?? [], stream.name).toHaveLength(2);
        // Ephemeral ordered consumers (broadcasts to one process) are R1 by design.
        for (const consumer of (stream.consumer_detail ?? []).filter((c) => c.config?.durable_name)) {
          expect(consumer.cluster?.replicas ?? [], `${stream.name}/${consumer.name}`).toHaveLength(2);
        }
      }
    }

    /** The node (1..3) that leads JetStream's meta group. */
    async function metaLeader(): Promise<number> {
      const jsz = await fetchJson(`${host.natsMonitorUrls[0]}/jsz`);
      const match = /^petri-nats-(\d)$/.exec(jsz.meta_cluster?.leader ?? "");
      if (!match) throw new Error(`no meta leader: ${JSON.stringify(jsz.meta_cluster)}`);
      return Number(match[1]);
    }
  },
);

/** The JSON of a NATS monitoring endpoint (only the fields read here). */
interface Jsz {
  meta_cluster?: { leader?: string };
  account_details?: { stream_detail?: StreamDetail[] }[];
}
interface StreamDetail {
  name: string;
  config: { num_replicas: number };
  cluster?: { replicas?: unknown[] };
  consumer_detail?: {
    name: string;
    config?: { durable_name?: string };
    cluster?: { replicas?: unknown[] };
  }[];
}

async function fetchJson(url: string): Promise<Jsz> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return (await response.json()) as Jsz;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).status === 200;
  } catch {
    return false;
  }
}
