import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { answerClientErrors } from "./client-errors.js";

let server: http.Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function listening(): Promise<number> {
  server = http.createServer((_req, res) => res.end("ok"));
  answerClientErrors(server);
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
});
