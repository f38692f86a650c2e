/**
 * The loopback HTTPS receiver (reliability test plan H3): records every request's raw body
 * bytes, headers and arrival, and answers as the test scripts it: a status, a redirect, no
 * answer at all, or a tarpit that drips its status line one byte per second.
 */
import { createServer, type Server } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { type TestCertificate, testCertificate } from "./certs.js";

export interface ReceivedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Real time of arrival (ms). */
  at: number;
}

export type Answer = { status: number; location?: string } | { hang: true } | { tarpit: true };

export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  /** TCP connections accepted (a refused address must never get here). */
  connections = 0;
  answer: (request: ReceivedRequest) => Answer = () => ({ status: 200 });
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    readonly host: string,
    readonly port: number,
    readonly certificate: TestCertificate,
  ) {}

  static async start(host = "127.0.0.1"): Promise<TestReceiver> {
    const certificate = await testCertificate();
    const server = createServer({ cert: certificate.cert, key: certificate.key });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, host, () => resolve());
    });
    const receiver = new TestReceiver(server, host, (server.address() as AddressInfo).port, certificate);
    server.on("connection", (socket: Socket) => {
      receiver.connections += 1;
      receiver.sockets.add(socket);
      socket.once("close", () => receiver.sockets.delete(socket));
    });
    server.on("request", (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const received: ReceivedRequest = {
          path: req.url ?? "/",
          headers: req.headers,
          body: Buffer.concat(chunks),
          at: Date.now(),
        };
        receiver.requests.push(received);
        const answer = receiver.answer(received);
        if ("hang" in answer) return;
        if ("tarpit" in answer) {
          const line = Buffer.from("HTTP/1.1 200 OK\r\n");
          let sent = 0;
          const drip = setInterval(() => {
            if (sent >= line.length || req.socket.destroyed) {
              clearInterval(drip);
              receiver.timers.delete(drip);
              return;
            }
            req.socket.write(line.subarray(sent, sent + 1));
            sent += 1;
          }, 1_000);
          receiver.timers.add(drip);
          return;
        }
        res.writeHead(answer.status, answer.location ? { location: answer.location } : {});
        res.end("ok");
      });
    });
    return receiver;
  }

  /** https://<name>:<port><path>: a name the test resolver maps to this receiver's address. */
  url(name = this.host, path = "/petri"): string {
    return `https://${name}:${this.port}${path}`;
  }

  /** Requests carrying this webhook-id. */
  withId(webhookId: string): ReceivedRequest[] {
    return this.requests.filter((request) => request.headers["webhook-id"] === webhookId);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
