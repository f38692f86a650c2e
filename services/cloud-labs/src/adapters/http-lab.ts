/**
 * A real provider's run API over HTTPS: Petri's lab-run contract, which a lab (or a bridge in
 * front of one, e.g. for Strateos or Emerald) implements:
 *
 *   POST {base}/runs            {submission_id, protocol_format, protocol}  -> 200/201 {id, status}
 *   GET  {base}/runs/{id}       -> {id, status, results?, error?}
 *   POST {base}/runs/{id}/cancel -> 2xx
 *
 * with `Authorization: Bearer <key>`. Lab statuses are mapped onto ours (LAB_STATUS_MAP; an
 * unknown status is an error, never a guess). Every call has a timeout and a response-size
 * cap; 429, 5xx and network failures are retryable, other 4xx are refusals. Messages never hold
 * the key or the lab's raw body.
 */
import { Agent, request } from "undici";
import { z } from "zod";
import type { SubmissionStatus } from "../domain/submission.js";
import { type LabAdapter, LabAdapterError, type LabRunReport, type SubmissionForLab } from "./lab-adapter.js";

export const LAB_STATUS_MAP: Readonly<Record<string, Exclude<SubmissionStatus, "pending">>> = {
  accepted: "submitted",
  submitted: "submitted",
  incart: "submitted",
  queued: "queued",
  backlogged: "queued",
  scheduled: "queued",
  in_progress: "running",
  running: "running",
  processing: "running",
  complete: "completed",
  completed: "completed",
  succeeded: "completed",
  aborted: "failed",
  failed: "failed",
  error: "failed",
  canceled: "cancelled",
  cancelled: "cancelled",
};

const MAX_RESPONSE_BYTES = 1024 * 1024;

const runSchema = z.object({
  id: z.string().min(1).max(200),
  status: z.string().min(1).max(50),
  results: z.record(z.string(), z.unknown()).optional(),
  error: z.string().max(2000).optional(),
});

export interface HttpLabOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

export class HttpLab implements LabAdapter {
  readonly name = "http" as const;
  private readonly dispatcher: Agent;

  constructor(private readonly options: HttpLabOptions) {
    this.dispatcher = new Agent({ connectTimeout: options.timeoutMs, connections: 16 });
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  async submit(submission: SubmissionForLab, signal: AbortSignal): Promise<{ providerSubmissionId: string }> {
    const run = await this.call("POST", "/runs", signal, {
      submission_id: submission.id,
      protocol_format: submission.protocolFormat,
      protocol: submission.protocol,
    });
    return { providerSubmissionId: run.id };
  }

  async poll(submission: SubmissionForLab, signal: AbortSignal): Promise<LabRunReport> {
    const run = await this.call("GET", `/runs/${encodeURIComponent(this.labId(submission))}`, signal);
    const status = LAB_STATUS_MAP[run.status.toLowerCase()];
    if (!status)
      throw new LabAdapterError(`the lab reported an unknown status "${run.status.slice(0, 50)}"`, true);
    return {
      status,
      ...(status === "completed" ? { results: run.results ?? {} } : {}),
      ...(status === "failed" ? { error: run.error ?? "the lab reported the run as failed" } : {}),
    };
  }

  async cancel(submission: SubmissionForLab, signal: AbortSignal): Promise<void> {
    await this.call("POST", `/runs/${encodeURIComponent(this.labId(submission))}/cancel`, signal, {}, false);
  }

  private labId(submission: SubmissionForLab): string {
    if (!submission.providerSubmissionId) throw new Error("the submission was never accepted by the lab");
    return submission.providerSubmissionId;
  }

  private async call(
    method: "GET" | "POST",
    path: string,
    signal: AbortSignal,
    body?: unknown,
    parse = true,
  ) {
    let response;
    try {
      response = await request(`${this.options.baseUrl}${path}`, {
        method,
        dispatcher: this.dispatcher,
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)]),
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new LabAdapterError(`the lab did not answer (${(error as Error).name})`, true);
    }
    const text = await readCapped(response.body);
    const status = response.statusCode;
    if (status === 429 || status >= 500) throw new LabAdapterError(`the lab answered ${status}`, true);
    if (status >= 400) throw new LabAdapterError(`the lab refused the request (${status})`, false);
    if (!parse) return { id: "", status: "" };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new LabAdapterError("the lab answered with something that is not JSON", true);
    }
    const run = runSchema.safeParse(json);
    if (!run.success) throw new LabAdapterError("the lab's answer does not have the expected shape", true);
    return run.data;
  }
}

async function readCapped(body: AsyncIterable<Buffer | Uint8Array> & { destroy?(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_RESPONSE_BYTES) {
      body.destroy?.();
      throw new LabAdapterError(`the lab's answer is larger than ${MAX_RESPONSE_BYTES} bytes`, true);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString("utf8");
}
