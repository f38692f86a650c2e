/**
 * The HTTP lab adapter against a fake lab run API on 127.0.0.1, through the worker: a
 * submission is sent with the bearer key and its protocol, followed through the lab's own
 * status names to completed with the lab's results; a lab that answers 500 is asked again
 * later; one that refuses the protocol fails the submission; an unknown lab status is never
 * guessed; cancel reaches the lab. PGlite (the adapter, not the database, is under test).
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import { fullRequests } from "@petri/fixtures";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Backend, type CloudLabs, requester, startCloudLabs, storedExperiment } from "./support/harness.js";

const PROVIDER = "petri-sll-sandbox";
const KEY = "lab-key-for-tests";

interface Received {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

class FakeLab {
  readonly received: Received[] = [];
  submitAnswers: number[] = [];
  statuses: string[] = [];
  private server!: Server;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = "";
    for await (const chunk of req) text += chunk;
    const path = req.url ?? "";
    this.received.push({
      method: req.method ?? "",
      path,
      authorization: req.headers.authorization,
      body: text ? JSON.parse(text) : undefined,
    });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "POST" && path === "/runs") {
      const status = this.submitAnswers.shift() ?? 201;
      return status === 201
        ? send(201, { id: "lab-run-1", status: "accepted" })
        : send(status, { error: "upstream detail" });
    }
    if (req.method === "GET" && path === "/runs/lab-run-1") {
      const status = this.statuses.shift() ?? "in_progress";
      return send(200, {
        id: "lab-run-1",
        status,
        ...(status === "complete"
          ? {
              results: {
                mic_values: { ampicillin: { "E. coli": "4 ug/mL" } },
                raw_data_url: "https://lab.example/raw/1",
              },
            }
          : {}),
      });
    }
    if (req.method === "POST" && path === "/runs/lab-run-1/cancel")
      return send(202, { id: "lab-run-1", status: "canceled" });
    send(404, { error: "no route" });
  }
}

describe("the HTTP lab adapter", () => {
  let backend: Backend;
  let cl: CloudLabs;
  const lab = new FakeLab();

  beforeAll(async () => {
    await lab.start();
    backend = await Backend.open("pglite");
    cl = await startCloudLabs(backend.database, {
      sandboxStepMs: 60_000,
      pollIntervalMs: 10_000,
      http: { baseUrl: lab.url, apiKey: KEY, providers: [PROVIDER], timeoutMs: 2_000 },
    });
  });
  afterAll(async () => {
    await cl?.stop();
    await backend?.close();
    await lab.close();
  });

  async function submitted() {
    const owner = requester();
    const experiment = storedExperiment(owner, fullRequests.MIC_MBC_ASSAY);
    await cl.know(experiment);
    const { submission } = await cl.as(owner).translateExperiment({
      experimentId: experiment.id,
      providerId: PROVIDER,
    });
    expect(submission!.adapter).toBe("http");
    return { owner, id: submission!.id };
  }

  it("sends with the key, retries a 500 later, then follows the lab's statuses to its results", async () => {
    lab.received.length = 0;
    lab.submitAnswers = [500];
    lab.statuses = ["backlogged", "processing", "complete"];
    const { owner, id } = await submitted();
    const read = async () => (await cl.as(owner).getSubmission({ submissionId: id })).submission!;

    await cl.service.worker.drain();
    expect((await read()).status).toBe("pending");
    await cl.clock.advance(10_000);
    await cl.service.worker.drain();
    expect(await read()).toMatchObject({ status: "submitted", providerSubmissionId: "lab-run-1" });
    const sends = lab.received.filter((r) => r.method === "POST" && r.path === "/runs");
    expect(sends).toHaveLength(2);
    expect(sends[1]).toMatchObject({
      authorization: `Bearer ${KEY}`,
      body: {
        submission_id: id,
        protocol_format: "sll",
        protocol: expect.objectContaining({ steps: expect.any(Array) }),
      },
    });

    for (const expected of ["queued", "running", "completed"]) {
      await cl.clock.advance(10_000);
      await cl.service.worker.drain();
      expect((await read()).status).toBe(expected);
    }
    expect(JSON.parse((await read()).resultsJson)).toEqual({
      mic_values: { ampicillin: { "E. coli": "4 ug/mL" } },
      raw_data_url: "https://lab.example/raw/1",
    });
  });

  it("fails a submission the lab refuses, and never guesses an unknown lab status", async () => {
    lab.submitAnswers = [422];
    const refused = await submitted();
    await cl.service.worker.drain();
    const failed = (await cl.as(refused.owner).getSubmission({ submissionId: refused.id })).submission!;
    expect(failed.status).toBe("failed");
    expect(failed.error).toContain("422");
    expect(failed.error).not.toContain("upstream detail");

    lab.submitAnswers = [201];
    lab.statuses = ["teleporting"];
    const odd = await submitted();
    await cl.service.worker.drain();
    await cl.clock.advance(10_000);
    await cl.service.worker.drain();
    expect((await cl.as(odd.owner).getSubmission({ submissionId: odd.id })).submission!.status).toBe(
      "submitted",
    );
  });

  it("cancels at the lab", async () => {
    lab.submitAnswers = [201];
    const { owner, id } = await submitted();
    await cl.service.worker.drain();
    lab.received.length = 0;
    const { submission } = await cl.as(owner).cancelSubmission({ submissionId: id });
    expect(submission!.status).toBe("cancelled");
    expect(lab.received).toEqual([
      expect.objectContaining({
        method: "POST",
        path: "/runs/lab-run-1/cancel",
        authorization: `Bearer ${KEY}`,
      }),
    ]);
  });
});
