import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { captureLogs } from "../test/log-capture.js";
import { answerClientErrors } from "./client-errors.js";

let server: http.Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function listening(logger?: ReturnType<typeof captureLogs>["logger"]): Promise<number> {
  server = http.createServer((_req, res) => res.end("ok"));
  answerClientErrors(server, logger, { accessLog: logger !== undefined });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", () => resolve()));
  return (server.address() as net.AddressInfo).port;
}

/** Sends raw bytes and collects everything until the server closes the connection. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.write(request);
  });
}

function parse(raw: string) {
  const [head, body] = raw.split("\r\n\r\n", 2) as [string, string];
  const [statusLine, ...headerLines] = head.split("\r\n");
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(":")).toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  );
  return { status: Number(statusLine!.split(" ")[1]), headers, body: JSON.parse(body) as unknown };
}

describe("answerClientErrors", () => {
  it("answers headers over Node's limit with 431 and the JSON envelope, then closes", async () => {
    const port = await listening();
    const raw = await exchange(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    const response = parse(raw);
    expect(response.status).toBe(431);
    expect(response.headers["content-type"]).toBe("application/json");
    expect(response.headers.connection).toBe("close");
    expect(response.body).toEqual({
      error: { code: "request_header_fields_too_large", message: expect.any(String), details: {} },
    });
  });

  it("answers both Content-Length and Transfer-Encoding with 400 and the envelope", async () => {
    const port = await listening();
    const raw = await exchange(
      port,
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    );
    const response = parse(raw);
    expect(response.status).toBe(400);
    expect(Number(response.headers["content-length"])).toBe(JSON.stringify(response.body).length);
    expect(response.body).toEqual({
      error: { code: "bad_request", message: expect.any(String), details: {} },
    });
  });

  it("answers a malformed request line with 400 and the envelope", async () => {
    const port = await listening();
    const response = parse(await exchange(port, "NOT HTTP AT ALL\r\n\r\n"));
    expect(response.status).toBe(400);
    expect((response.body as { error: { code: string } }).error.code).toBe("bad_request");
  });

  it("writes the access line of each answer: method, status, ids, no route and no header value", async () => {
    const capture = captureLogs("info");
    const port = await listening(capture.logger);
    const secret = "petri_sk_0123456789abcdefghijklmnopqrstuv";
    await exchange(
      port,
      `GET /accounts/acc_1 HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${secret}\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    await exchange(port, "NOT HTTP AT ALL\r\n\r\n");
    const lines = capture.lines.filter((line) => line.msg === "request");
    expect(lines).toEqual([
      expect.objectContaining({ level: "info", method: "GET", route: "(unmatched)", status: 431 }),
      expect.objectContaining({ route: "(unmatched)", status: 400 }),
    ]);
    expect(lines[0]!.request_id).toMatch(/^req_/);
    // A request that never reached a route has no trace.
    expect(lines[0]).not.toHaveProperty("trace_id");
    expect(lines[1]).not.toHaveProperty("method");
    expect(JSON.stringify(capture.lines)).not.toMatch(/acc_1|petri_sk_|aaaa/);
  });
});
