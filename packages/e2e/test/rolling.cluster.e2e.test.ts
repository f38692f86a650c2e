/**
 * Independent deploys (issue 15, item 6): deploy/local/roll.sh rebuilds the experiments
 * service and replaces its two replicas one at a time (SIGTERM, drain, start the new bundle,
 * wait for /readyz) while a steady, bounded load runs through the gateway on routes of every
 * service. The other services' routes must not fail once; the experiments routes may fail only
 * with a 503 error envelope, and only while the roll is under way. Every acknowledged create
 * holds afterwards, and both new replicas serve calls. Prints the figures.
 *
 * Each route is driven by an account of its own (a lane), one request after another with a
 * pause between, so no account reaches the standard 100 requests a minute.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, micRequest, newRequester, staffClient } from "./experiments.scenarios.js";
import { eventually, newVerifiedOperator } from "./marketplace.scenarios.js";
import { STAFF, clusterInfraReady, startClusterHost } from "./support/hosts.js";
import { pidOf, waitFor } from "./support/processes.js";

const ROLLED = "experiments";
/** deploy/local's labels of the experiments replicas, and their log files. */
const REPLICAS = ["experiments", "experiments-1"] as const;
/** Between one lane's requests: at most ~85 a minute per account. */
const PAUSE_MS = 700;
/** Upper bound of requests per lane; the load stops earlier, once the roll is done. */
const MAX_REQUESTS = 400;
/** Answered requests each lane must see before the roll, and again after it. */
const REQUESTS_AROUND_ROLL = 3;
/** deploy/local's experiments replicas listen on PETRI_PORT_BASE + these. */
const REPLICA_PORT_OFFSETS = [2, 11];
const BUNDLE = path.resolve(import.meta.dirname, "../../../services/experiments/dist/bundle/main.js");

interface Outcome {
  lane: string;
  status: number;
  /** The error envelope's code, or the connection error when there was no answer. */
  code: string;
  envelope: boolean;
  startedAt: number;
}

interface Lane {
  name: string;
  /** The service whose RPCs the route calls. */
  service: string;
  send: () => ReturnType<Client["call"]>;
}

/** The spec's error shape: {"error":{"code","message","details"}}. */
function isErrorEnvelope(body: unknown): boolean {
  const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
  return (
    typeof error?.code === "string" &&
    typeof error.message === "string" &&
    typeof error.details === "object" &&
    error.details !== null
  );
}

type Probe = "ready" | "down" | "slow";

/**
 * A replica's /readyz: refused or 503 is down; no answer within 3 s on a loaded machine
 * proves nothing either way.
 */
async function probeReplica(port: number): Promise<Probe> {
  try {
    const answer = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(3_000) });
    await answer.arrayBuffer();
    return answer.status === 200 ? "ready" : "down";
  } catch (error) {
    return (error as Error).name === "TimeoutError" ? "slow" : "down";
  }
}

/** Samples both replicas every 100 ms until stopped: one at a time means never both down at once. */
function watchReplicas(ports: number[]) {
  const samples: Probe[][] = [];
  let watching = true;
  const done = (async () => {
    while (watching) {
      samples.push(await Promise.all(ports.map(probeReplica)));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    samples,
    async stop() {
      watching = false;
      await done;
    },
  };
}

function rpcCallsAfter(logFile: string, offset: number): number {
  const text = readFileSync(logFile).subarray(offset).toString("utf8");
  return text.split("\n").filter((line) => line.includes('"msg":"rpc"')).length;
}

describe.skipIf(!(await clusterInfraReady()))(
  "independent deploys: experiments rolled one replica at a time under load, cluster mode",
  { timeout: 420_000 },
  () => {
    let host: Awaited<ReturnType<typeof startClusterHost>>;

    beforeAll(async () => {
      // Debug logs carry one "rpc" line per call: proof the new replicas serve.
      host = await startClusterHost("rolling", { gateways: 1, env: { LOG_LEVEL: "debug" } });
    }, 360_000);

    afterAll(() => host?.stop(), 120_000);

    it("the other services never fail; experiments fails only with 503 envelopes during the roll", async () => {
      const target = { baseUrls: host.baseUrls, staff: STAFF };
      const staff = await staffClient(target);
      const requester = (label: string) => newRequester(target, `rolling-${label}`);
      const payer = await requester("payment");
      const paid = await payer.call("POST", "/experiments", micRequest());
      expect(paid.status, paid.text).toBe(201);
      const paidId = paid.body.experiment_id as string;
      await eventually("the escrow hold", async () => {
        const payment = await payer.call("GET", `/experiments/${paidId}/payment`);
        return payment.status === 200 ? true : undefined;
      });
      const reader = await requester("reader");
      const read = await reader.call("POST", "/experiments", micRequest());
      expect(read.status, read.text).toBe(201);
      const readId = read.body.experiment_id as string;
      const { client: operator } = await newVerifiedOperator(target, staff, "rolling-lab");
      const [me, library, providers, engine, deliveries, templates, writer] = await Promise.all(
        ["me", "library", "providers", "engine", "deliveries", "templates", "writer"].map(requester),
      );

      const created: string[] = [];
      const lanes: Lane[] = [
        { name: "GET /auth/me", service: "identity", send: () => me!.call("GET", "/auth/me") },
        { name: "GET /hypotheses", service: "hypotheses", send: () => library!.call("GET", "/hypotheses") },
        {
          name: "GET /operator/jobs",
          service: "marketplace",
          send: () => operator.call("GET", "/operator/jobs"),
        },
        {
          name: "GET /experiments/{id}/payment",
          service: "marketplace",
          send: () => payer.call("GET", `/experiments/${paidId}/payment`),
        },
        {
          name: "GET /cloud-labs/providers",
          service: "cloud-labs",
          send: () => providers!.call("GET", "/cloud-labs/providers"),
        },
        {
          name: "GET /cloud-labs/engine/runs",
          service: "engine",
          send: () => engine!.call("GET", "/cloud-labs/engine/runs"),
        },
        {
          name: "GET /webhooks/deliveries",
          service: "notifications",
          send: () => deliveries!.call("GET", "/webhooks/deliveries"),
        },
        { name: "GET /templates", service: ROLLED, send: () => templates!.call("GET", "/templates") },
        {
          name: "GET /experiments/{id}",
          service: ROLLED,
          send: () => reader.call("GET", `/experiments/${readId}`),
        },
        {
          name: "POST /experiments",
          service: ROLLED,
          send: async () => {
            const answer = await writer!.call("POST", "/experiments", micRequest());
            if (answer.status === 201) created.push(answer.body.experiment_id as string);
            return answer;
          },
        },
      ];

      const outcomes: Outcome[] = [];
      const answered = new Map<string, number>();
      let stop = false;
      const load = lanes.map(async (lane) => {
        for (let i = 0; i < MAX_REQUESTS && !stop; i += 1) {
          const startedAt = Date.now();
          try {
            const answer = await lane.send();
            const ok = answer.status >= 200 && answer.status < 300;
            outcomes.push({
              lane: lane.name,
              status: answer.status,
              code: ok ? "" : String(answer.body?.error?.code ?? ""),
              envelope: !ok && isErrorEnvelope(answer.body),
              startedAt,
            });
          } catch (error) {
            const cause = (error as { cause?: { code?: string } }).cause?.code ?? "no answer";
            outcomes.push({ lane: lane.name, status: 0, code: cause, envelope: false, startedAt });
          }
          answered.set(lane.name, (answered.get(lane.name) ?? 0) + 1);
          await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        }
      });
      const everyLaneAnswers = async (what: string) => {
        const from = new Map(answered);
        const passed = await waitFor(
          () =>
            lanes.every((l) => (answered.get(l.name) ?? 0) >= (from.get(l.name) ?? 0) + REQUESTS_AROUND_ROLL),
          60_000,
        );
        if (!passed) throw new Error(`the load made no progress ${what}`);
      };

      const pidsFile = path.join(host.state, "pids");
      const oldPids = REPLICAS.map((label) => pidOf(pidsFile, label));
      const logs = REPLICAS.map((label) => path.join(host.logDir, `${label}.log`));
      let rollStartedAt = 0;
      let rollEndedAt = 0;
      let logOffsets: number[] = [];
      let rollOutput = "";
      let replicaSamples: Probe[][] = [];
      try {
        await everyLaneAnswers("before the roll");
        const watcher = watchReplicas(REPLICA_PORT_OFFSETS.map((offset) => host.portBase + offset));
        rollStartedAt = Date.now();
        try {
          rollOutput = await host.roll(ROLLED);
        } finally {
          rollEndedAt = Date.now();
          await watcher.stop();
        }
        replicaSamples = watcher.samples;
        // The old processes are gone: what the logs gain from here on, the new ones wrote.
        logOffsets = logs.map((file) => statSync(file).size);
        await everyLaneAnswers("after the roll");
        // A replica that was refused while down is skipped for 2 s; the load runs on until
        // both new processes have served calls (asserted below).
        await waitFor(() => logs.every((file, i) => rpcCallsAfter(file, logOffsets[i]!) > 0), 60_000);
      } finally {
        stop = true;
        await Promise.all(load);
      }

      const figures = lanes.map((lane) => {
        const mine = outcomes.filter((o) => o.lane === lane.name);
        const during = mine.filter((o) => o.startedAt >= rollStartedAt && o.startedAt <= rollEndedAt);
        const failed = mine.filter((o) => o.status < 200 || o.status >= 300);
        return { lane, requests: mine.length, during: during.length, failed };
      });
      console.log(
        [
          `roll of ${ROLLED} took ${rollEndedAt - rollStartedAt} ms:`,
          rollOutput.trim(),
          `replica readiness, ${replicaSamples.length} samples: ` +
            REPLICAS.map(
              (label, i) => `${label} down in ${replicaSamples.filter((s) => s[i] === "down").length}`,
            ).join(", "),
          ...figures.map(
            (f) =>
              `${f.lane.name} (${f.lane.service}): ${f.requests} requests, ${f.during} during the roll, ` +
              `${f.failed.length} failed${f.failed.length ? ` (${f.failed.map((o) => `${o.status} ${o.code}`).join(", ")})` : ""}`,
          ),
        ].join("\n"),
      );

      // Rebuilt, and rolled one replica at a time: never both down at once.
      expect(statSync(BUNDLE).mtimeMs, "the bundle was rebuilt").toBeGreaterThanOrEqual(
        rollStartedAt - 1_000,
      );
      const bothDown = replicaSamples.filter((sample) => sample.every((probe) => probe === "down"));
      expect(bothDown.length, "samples with both experiments replicas down").toBe(0);
      // Both replicas were replaced, and the new processes serve.
      const newPids = REPLICAS.map((label) => pidOf(pidsFile, label));
      for (const [i, pid] of newPids.entries()) expect(pid, REPLICAS[i]).not.toBe(oldPids[i]);
      for (const [i, file] of logs.entries()) {
        expect(rpcCallsAfter(file, logOffsets[i]!), `calls served by the new ${REPLICAS[i]}`).toBeGreaterThan(
          0,
        );
      }

      for (const { lane, during, failed } of figures) {
        if (lane.service !== ROLLED) {
          expect(failed, `${lane.name} (${lane.service}) failed`).toEqual([]);
          continue;
        }
        // The roll really ran under this lane's load.
        expect(during, `${lane.name} requests during the roll`).toBeGreaterThan(0);
        // What the gateway logged about them (a 500 here once, in CI only): the cause is in it.
        const gatewayErrors = failed.length
          ? readFileSync(path.join(host.logDir, "gateway-0.log"), "utf8")
              .split("\n")
              .filter((line) => line.includes('"level":"error"') || line.includes('"status":5'))
              .join("\n")
          : "";
        for (const outcome of failed) {
          expect(
            outcome,
            `${lane.name}: a failure other than a 503 envelope; gateway errors:\n${gatewayErrors}`,
          ).toMatchObject({
            status: 503,
            code: "unavailable",
            envelope: true,
          });
          expect(outcome.startedAt, `${lane.name}: a failure outside the roll`).toBeGreaterThanOrEqual(
            rollStartedAt,
          );
          expect(outcome.startedAt, `${lane.name}: a failure outside the roll`).toBeLessThanOrEqual(
            rollEndedAt,
          );
        }
      }

      // Every acknowledged create holds on the new version.
      expect(created.length).toBeGreaterThan(0);
      for (const id of created) {
        const got = await writer!.call("GET", `/experiments/${id}`);
        expect(got.status, `${id}: ${got.text}`).toBe(200);
      }
    });
  },
);
