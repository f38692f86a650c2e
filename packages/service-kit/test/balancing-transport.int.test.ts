/**
 * The balancing transport against real Connect servers (h2c on 127.0.0.1): each server counts
 * the calls it received, so the share each got is exact. Then against a bare HTTP/2 server
 * that takes the request and drops the connection, the ways a stopping replica does.
 */
import http2 from "node:http2";
import net from "node:net";
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { Health } from "@petri/contracts/health";
import { afterEach, describe, expect, it } from "vitest";
import { createBalancedConnectTransport } from "../src/balancing-transport/index.js";
import { createLogger } from "../src/logger.js";
import { buildServiceServer, type ServiceServer } from "../src/server.js";

const logger = createLogger({ service: "balancing-int", level: "silent" });

interface CountingServer {
  url: string;
  received: () => number;
  server: ServiceServer;
}

const servers: ServiceServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function countingServer(): Promise<CountingServer> {
  let received = 0;
  const count: Interceptor = (next) => (req) => {
    received += 1;
    return next(req);
  };
  const server = buildServiceServer({
    routes: () => undefined,
    interceptors: [count],
    readiness: async () => ({ ready: true, checks: [] }),
    logger,
    drainTimeoutMs: 2_000,
  });
  servers.push(server);
  const { port } = await server.listen(0, "127.0.0.1");
  return { url: `http://127.0.0.1:${port}`, received: () => received, server };
}

/** A loopback port nothing listens on (connections to it are refused). */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function healthClient(urls: string[]) {
  const transport = createBalancedConnectTransport({ urls, useBinaryFormat: true });
  return { transport, health: createClient(Health, transport) };
}

describe("BalancingTransport over real HTTP/2 connections", () => {
  it("two servers each receive half of one client's calls, sequential and concurrent", async () => {
    const [one, two] = [await countingServer(), await countingServer()];
    const { transport, health } = healthClient([one.url, two.url]);
    try {
      for (let i = 0; i < 40; i += 1) await health.check({ service: "" });
      expect([one.received(), two.received()]).toEqual([20, 20]);
      await Promise.all(Array.from({ length: 60 }, () => health.check({ service: "" })));
      const shares = [one.received(), two.received()];
      expect(shares[0]! + shares[1]!).toBe(100);
      // Concurrent calls follow the calls in flight, so the split need not be exact.
      for (const share of shares) expect(share).toBeGreaterThanOrEqual(35);
    } finally {
      transport.close();
    }
  });

  it("a refused endpoint costs no call: each is sent again to a live server, which gets them all", async () => {
    const [one, two] = [await countingServer(), await countingServer()];
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const { transport, health } = healthClient([one.url, dead, two.url]);
    try {
      for (let i = 0; i < 30; i += 1) await health.check({ service: "" });
      expect(one.received() + two.received()).toBe(30);
      expect(Math.min(one.received(), two.received())).toBeGreaterThanOrEqual(10);
    } finally {
      transport.close();
    }
  });

  it("when one server shuts down, later calls go to the other without failing", async () => {
    const [one, two] = [await countingServer(), await countingServer()];
    const { transport, health } = healthClient([one.url, two.url]);
    try {
      for (let i = 0; i < 10; i += 1) await health.check({ service: "" });
      await one.server.close();
      const before = two.received();
      for (let i = 0; i < 20; i += 1) await health.check({ service: "" });
      expect(two.received() - before).toBe(20);
    } finally {
      transport.close();
    }
  });
});

/** How a replica's side of the connection goes away once it has read a call's request. */
type Drop = (stream: http2.ServerHttp2Stream, socket: net.Socket) => void;

/**
 * An h2c server that reads each request to its end, then drops the connection with `drop`.
 * Returns its URL and how many requests it read.
 */
async function droppingServer(drop: Drop): Promise<{ url: string; received: () => number; close(): void }> {
  const server = http2.createServer();
  const sockets = new Set<net.Socket>();
  let received = 0;
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined); // a reset this side made
  });
  server.on("sessionError", () => undefined);
  server.on("stream", (stream) => {
    stream.on("error", () => undefined);
    stream.resume();
    stream.on("end", () => {
      received += 1;
      // The client holds one session, so the latest connection is the one this stream is on.
      drop(stream, [...sockets].at(-1)!);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** Each way, with the code connect-node itself gives the failed call. */
const drops: Array<[string, Drop, Code]> = [
  ["the session destroyed (a stopped process)", (stream) => stream.session!.destroy(), Code.Canceled],
  [
    "GOAWAY with INTERNAL_ERROR",
    (stream) => stream.session!.goaway(http2.constants.NGHTTP2_INTERNAL_ERROR),
    Code.Internal,
  ],
  [
    "the stream reset with REFUSED_STREAM",
    (stream) => stream.close(http2.constants.NGHTTP2_REFUSED_STREAM),
    Code.Internal,
  ],
  ["the socket reset (TCP RST)", (_, socket) => socket.resetAndDestroy(), Code.Aborted],
];

describe("BalancingTransport when a replica's connection goes away mid-call", () => {
  it.each(drops)("after %s the call fails with Unavailable", async (_, drop, connectNodeCode) => {
    const replica = await droppingServer(drop);
    const { transport, health } = healthClient([replica.url]);
    try {
      const error = await health.check({ service: "" }, { timeoutMs: 10_000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectError);
      expect(error).toMatchObject({ code: Code.Unavailable, cause: { code: connectNodeCode } });
      expect(replica.received()).toBe(1); // read, so not sent again
    } finally {
      transport.close();
      replica.close();
    }
  });

  it("a stream whose session is destroyed before it answers fails with Unavailable", async () => {
    const replica = await droppingServer((stream) => stream.session!.destroy());
    const { transport, health } = healthClient([replica.url]);
    try {
      const read = (async () => {
        for await (const _ of health.watch({ service: "" }, { timeoutMs: 10_000 })) void _;
      })();
      await expect(read).rejects.toMatchObject({ code: Code.Unavailable, cause: { code: Code.Canceled } });
    } finally {
      transport.close();
      replica.close();
    }
  });
});
