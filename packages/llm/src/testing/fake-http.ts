/**
 * The plumbing the fake upstream servers share: a node:http server on 127.0.0.1 (port 0),
 * request recording, JSON answers, and close() that also ends requests left hanging.
 */
import { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** The path without the query string, e.g. "/v1/chat/completions". */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The JSON body, when there was one. */
  body: unknown;
}

/** What every fake server returns to its test. */
export interface FakeServer<Scenario extends string, Options> {
  /** The base URL to configure (see each server for its paths). */
  url: string;
  /** Every request received, oldest first. Tests may clear it (`requests.length = 0`). */
  requests: RecordedRequest[];
  setScenario(scenario: Scenario, options?: Options): void;
  /** The most requests that were being answered at the same time since the scenario was set. */
  readonly peakConcurrency: number;
  close(): Promise<void>;
}

const REQUEST_BODY_LIMIT_BYTES = 1024 * 1024;

export type FakeHandler = (request: RecordedRequest, response: ServerResponse) => Promise<void> | void;

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

export function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { "content-type": "text/plain", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > REQUEST_BODY_LIMIT_BYTES) throw new Error("request body too large for the fake server");
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export async function startFakeHttpServer(handler: FakeHandler): Promise<{
  origin: string;
  requests: RecordedRequest[];
  peakConcurrency: () => number;
  resetPeakConcurrency: () => void;
  close(): Promise<void>;
}> {
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let peak = 0;
  const server = createServer((incoming, response) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    let counted = true;
    const done = () => {
      if (counted) inFlight--;
      counted = false;
    };
    response.on("close", done);
    void (async () => {
      const url = new URL(incoming.url ?? "/", "http://127.0.0.1");
      const recorded: RecordedRequest = {
        method: incoming.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: incoming.headers,
        body: await readBody(incoming),
      };
      requests.push(recorded);
      await handler(recorded, response);
    })().catch(() => {
      if (!response.headersSent) sendText(response, 500, "fake server failure");
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    peakConcurrency: () => peak,
    resetPeakConcurrency: () => {
      peak = inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
