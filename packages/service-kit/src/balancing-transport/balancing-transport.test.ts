import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import { Health } from "@petri/contracts/health";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BalancingTransport } from "./balancing-transport.js";
import type { LookupAll } from "./endpoints.js";

/** A child transport whose calls wait until the test settles them. */
class FakeEndpoint {
  readonly calls: Array<{ resolve(): void; reject(error: unknown): void; timeoutMs: number | undefined }> =
    [];
  /** Settles every call at once instead of holding it. */
  answer: "hold" | "ok" | ((call: number) => unknown) = "ok";
  closed = false;
  streamsEnded = 0;
  /** Thrown by a stream after its first message (the connection died while it ran). */
  streamFailure: unknown;

  constructor(readonly baseUrl: string) {}

  readonly transport = {
    unary: (_method: unknown, _signal: unknown, timeoutMs: number | undefined) =>
      new Promise((resolve, reject) => {
        const index = this.calls.length;
        this.calls.push({ resolve: () => resolve(this.response()), reject, timeoutMs });
        if (this.answer === "ok") resolve(this.response());
        else if (typeof this.answer === "function") reject(this.answer(index));
      }),
    stream: () => {
      this.calls.push({ resolve: () => undefined, reject: () => undefined, timeoutMs: undefined });
      if (typeof this.answer === "function") return Promise.reject(this.answer(this.calls.length - 1));
      const ended = () => (this.streamsEnded += 1);
      const failure = this.streamFailure;
      async function* messages() {
        try {
          yield { status: 1 };
          if (failure !== undefined) throw failure;
          yield { status: 1 };
        } finally {
          ended();
        }
      }
      return Promise.resolve({ ...this.response(), stream: true, message: messages() });
    },
  } as unknown as Transport;

  close(): void {
    this.closed = true;
  }

  private response() {
    return {
      stream: false,
      service: Health,
      method: Health.method.check,
      header: new Headers(),
      trailer: new Headers(),
      message: { status: 1 },
    };
  }
}

/** What connect-node reports when nothing listens on the endpoint's port. */
function refused(): ConnectError {
  const cause = Object.assign(new Error("connect ECONNREFUSED 10.0.0.1:8080"), {
    code: "ECONNREFUSED",
    syscall: "connect",
  });
  return new ConnectError("connect ECONNREFUSED", Code.Unavailable, undefined, undefined, cause);
}

/** A connection that died after the request went out: the server may have run it. */
function reset(): ConnectError {
  const cause = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", syscall: "read" });
  return new ConnectError("read ECONNRESET", Code.Aborted, undefined, undefined, cause);
}

/** A Node error as Node raises it: a message and a `code`. */
function nodeError(code: string, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { code, ...extra });
}

/**
 * connect-node's conversion of a Node error (connectErrorFromNodeReason, not exported): the
 * Node error's message, the code it picked, the Node error as cause.
 */
function fromNodeReason(cause: Error, code: Code): ConnectError {
  return new ConnectError(cause.message, code, undefined, undefined, cause);
}

/** connect-node's error for a stream closed under the call (connectErrorFromH2ResetCode). */
function streamClosed(name: string, rstCode: number, code: Code): ConnectError {
  return new ConnectError(`http/2 stream closed with error code ${name} (0x${rstCode.toString(16)})`, code);
}

/**
 * Every shape in which connect-node 2.1 reports a connection to a replica that went away,
 * with the code it gives it (the gateway would answer Internal 500, Aborted 409, Canceled 500).
 */
const lostConnections: Array<[string, () => ConnectError]> = [
  ["a reset socket (Aborted)", () => reset()],
  [
    "a destroyed request stream (Aborted)",
    () =>
      fromNodeReason(
        nodeError("ERR_STREAM_DESTROYED", "Cannot call write after a stream was destroyed"),
        Code.Aborted,
      ),
  ],
  [
    "an invalid stream (Aborted)",
    () =>
      fromNodeReason(nodeError("ERR_HTTP2_INVALID_STREAM", "The stream has been destroyed"), Code.Aborted),
  ],
  [
    "a GOAWAY with an error code (Internal)",
    () =>
      fromNodeReason(nodeError("ERR_HTTP2_SESSION_ERROR", "Session closed with error code 2"), Code.Internal),
  ],
  ...["NGHTTP2_REFUSED_STREAM", "NGHTTP2_INTERNAL_ERROR", "NGHTTP2_PROTOCOL_ERROR"].map(
    (name): [string, () => ConnectError] => [
      `a stream reset with ${name} (Internal)`,
      () =>
        fromNodeReason(
          nodeError("ERR_HTTP2_STREAM_ERROR", `Stream closed with error code ${name}`),
          Code.Internal,
        ),
    ],
  ),
  [
    "a request after a GOAWAY (Internal)",
    () =>
      fromNodeReason(
        nodeError("ERR_HTTP2_GOAWAY_SESSION", "New streams cannot be created after receiving a GOAWAY"),
        Code.Internal,
      ),
  ],
  [
    "a request on a destroyed session (Internal)",
    () =>
      fromNodeReason(nodeError("ERR_HTTP2_INVALID_SESSION", "The session has been destroyed"), Code.Internal),
  ],
  [
    "a pending stream canceled with its session (Internal)",
    () => {
      const session = nodeError("ERR_HTTP2_SESSION_ERROR", "Session closed with error code 2");
      const canceled = nodeError(
        "ERR_HTTP2_STREAM_CANCEL",
        `The pending stream has been canceled (caused by: ${session.message})`,
        { cause: session },
      );
      return fromNodeReason(canceled, Code.Internal);
    },
  ],
  [
    "a session or socket closed under the stream (Canceled)",
    () => streamClosed("CANCEL", 0x8, Code.Canceled),
  ],
  [
    "a stream closed with INTERNAL_ERROR (Internal)",
    () => streamClosed("INTERNAL_ERROR", 0x2, Code.Internal),
  ],
  [
    "a stream closed with REFUSED_STREAM (Unavailable)",
    () => streamClosed("REFUSED_STREAM", 0x7, Code.Unavailable),
  ],
  [
    "a session found destroyed when a request was about to use it (Internal)",
    () => new ConnectError("expected open session, but it is destroyed", Code.Internal),
  ],
  ["a refused connection (Unavailable)", () => refused()],
];

/** What connect decodes from a server's error answer: the response headers come along. */
function answered(message: string, code: Code): ConnectError {
  return new ConnectError(message, code, new Headers({ "content-type": "application/json" }));
}

let transports: BalancingTransport[] = [];
afterEach(() => {
  for (const transport of transports) transport.close();
  transports = [];
  vi.useRealTimers();
});

function balancer(
  urls: string[],
  options: { lookup?: LookupAll; now?: () => number; skipMs?: number; resolveIntervalMs?: number } = {},
) {
  const endpoints = new Map<string, FakeEndpoint>();
  const transport = new BalancingTransport({
    urls,
    ...options,
    connect(baseUrl) {
      const endpoint = new FakeEndpoint(baseUrl);
      endpoints.set(baseUrl, endpoint);
      return endpoint;
    },
  });
  transports.push(transport);
  const call = (timeoutMs?: number) =>
    transport.unary(Health.method.check, undefined, timeoutMs, undefined, { service: "" });
  const counts = () => Object.fromEntries([...endpoints].map(([url, e]) => [url, e.calls.length]));
  return { transport, endpoints, call, counts };
}

/** A Health.Watch stream through `transport` (one request message). */
function openWatch(transport: BalancingTransport) {
  return transport.stream(
    Health.method.watch,
    undefined,
    undefined,
    undefined,
    (async function* () {
      yield { service: "" };
    })(),
  );
}

const A = "http://10.0.0.1:8080";
const B = "http://10.0.0.2:8080";
const C = "http://10.0.0.3:8080";

describe("BalancingTransport", () => {
  it("gives two endpoints an equal share of one caller's sequential calls", async () => {
    const { call, counts } = balancer([A, B]);
    for (let i = 0; i < 100; i += 1) await call();
    expect(counts()).toEqual({ [A]: 50, [B]: 50 });
  });

  it("gives three endpoints an equal share of concurrent calls", async () => {
    const { call, counts, endpoints } = balancer([A, B, C]);
    await call(); // the first call waits for the endpoints to be known
    for (const endpoint of endpoints.values()) endpoint.answer = "hold";
    const pending = Array.from({ length: 89 }, () => call());
    await vi.waitFor(() => expect(Object.values(counts()).reduce((a, b) => a + b)).toBe(90));
    expect(counts()).toEqual({ [A]: 30, [B]: 30, [C]: 30 });
    for (const endpoint of endpoints.values()) for (const c of endpoint.calls) c.resolve();
    await Promise.all(pending);
  });

  it("sends new calls to the endpoint with fewer calls in flight", async () => {
    const { call, endpoints } = balancer([A, B]);
    await call();
    await call();
    const stalled = endpoints.get(A)!;
    stalled.answer = "hold";
    const held = [call(), call(), call(), call()].map((p) => p.catch(() => undefined)); // A, B, A, B
    // B answers at once, so with A holding its calls every later one goes to B.
    await vi.waitFor(() => expect(stalled.calls.length).toBe(3));
    for (let i = 0; i < 10; i += 1) await call();
    expect(stalled.calls.length).toBe(3);
    expect(endpoints.get(B)!.calls.length).toBe(1 + 2 + 10);
    for (const c of stalled.calls) c.resolve();
    await Promise.all(held);
  });

  it("counts a burst's own calls: calls issued in one tick fill the emptier endpoint first", async () => {
    const { call, endpoints } = balancer([A, B]);
    await call(); // A
    const a = endpoints.get(A)!;
    const b = endpoints.get(B)!;
    a.answer = "hold";
    b.answer = "hold";
    const held = Array.from({ length: 8 }, () => call());
    expect([a.calls.length, b.calls.length]).toEqual([1 + 4, 4]);
    for (const c of b.calls) c.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0)); // B's answered calls finish
    // A has 4 calls in flight, B none. Six calls at once: four to B, then one each.
    const bBefore = b.calls.length;
    held.push(...Array.from({ length: 6 }, () => call()));
    expect(a.calls.length - 5).toBe(1);
    expect(b.calls.length - bBefore).toBe(5);
    for (const c of [...a.calls, ...b.calls]) c.resolve();
    await Promise.all(held);
  });

  it("balances streams too, and counts a stream in flight until its messages are read", async () => {
    const { transport, endpoints } = balancer([A, B]);
    const open = () => openWatch(transport);
    const first = await open();
    const second = await open();
    const third = await open();
    expect([...endpoints.values()].map((e) => e.calls.length)).toEqual([2, 1]);
    for (const response of [first, second, third]) for await (const _ of response.message) void _;
    expect([...endpoints.values()].map((e) => e.streamsEnded)).toEqual([2, 1]);
  });

  it("takes in endpoints that appear and retires those that go, after their calls finish", async () => {
    let addresses = ["10.0.0.1", "10.0.0.2"];
    const lookup = vi.fn<LookupAll>(async () => addresses.map((address) => ({ address })));
    const { transport, call, endpoints, counts } = balancer(["http://experiments-headless:8080"], { lookup });
    await call();
    expect(lookup).toHaveBeenCalledWith("experiments-headless");
    expect(transport.endpointUrls).toEqual([A, B]);
    const leaving = endpoints.get(A)!;
    const staying = endpoints.get(B)!;
    leaving.answer = "hold";
    staying.answer = "hold";
    const inFlight = [call(), call()]; // one on each
    await vi.waitFor(() => expect(leaving.calls.length).toBe(2));

    addresses = ["10.0.0.2", "10.0.0.3"];
    await transport.refresh();
    expect(transport.endpointUrls).toEqual([B, C]);
    expect(leaving.closed).toBe(false); // its call is still running
    for (const c of [...leaving.calls, ...staying.calls]) c.resolve();
    await Promise.all(inFlight);
    expect(leaving.closed).toBe(true);
    expect(staying.closed).toBe(false);

    staying.answer = "ok";
    for (let i = 0; i < 10; i += 1) await call();
    expect(counts()).toEqual({ [A]: 2, [B]: 1 + 5, [C]: 5 });
  });

  it("resolves the host name again on its interval", async () => {
    vi.useFakeTimers();
    let addresses = ["10.0.0.1"];
    const lookup = vi.fn<LookupAll>(async () => addresses.map((address) => ({ address })));
    const { transport } = balancer(["http://experiments-headless:8080"], {
      lookup,
      resolveIntervalMs: 5_000,
    });
    await transport.refresh();
    addresses = ["10.0.0.1", "10.0.0.2"];
    await vi.advanceTimersByTimeAsync(4_000);
    expect(transport.endpointUrls).toEqual([A]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(transport.endpointUrls).toEqual([A, B]);
  });

  it("keeps the last endpoints when a lookup fails or finds no address", async () => {
    let answer: () => Promise<Array<{ address: string }>> = async () => [{ address: "10.0.0.1" }];
    const { transport } = balancer(["http://experiments-headless:8080"], { lookup: () => answer() });
    await transport.refresh();
    answer = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    await transport.refresh();
    expect(transport.endpointUrls).toEqual([A]);
    answer = async () => [];
    await transport.refresh();
    expect(transport.endpointUrls).toEqual([A]);
  });

  it("sends a refused call once more to another endpoint and skips the refusing one for a while", async () => {
    let now = 1_000;
    const { call, endpoints, counts } = balancer([A, B], { now: () => now, skipMs: 2_000 });
    await call(); // A
    endpoints.get(B)!.answer = () => refused();
    await call(); // B refuses; the call succeeds on A
    expect(counts()).toEqual({ [A]: 2, [B]: 1 });
    for (let i = 0; i < 6; i += 1) await call();
    expect(counts()).toEqual({ [A]: 8, [B]: 1 }); // B skipped meanwhile
    endpoints.get(B)!.answer = "ok";
    now += 2_000;
    for (let i = 0; i < 4; i += 1) await call();
    expect(counts()).toEqual({ [A]: 10, [B]: 3 });
  });

  it("gives the retry what is left of the caller's deadline", async () => {
    let now = 0;
    const { call, endpoints } = balancer([A, B], { now: () => now });
    await call(); // A; the next goes to B first
    endpoints.get(B)!.answer = () => {
      now += 300;
      return refused();
    };
    await call(1_000);
    expect(endpoints.get(A)!.calls.at(-1)!.timeoutMs).toBe(700);
  });

  it("never repeats a call that may have reached a server", async () => {
    const { call, endpoints, counts } = balancer([A, B]);
    await call(); // A; the next goes to B
    endpoints.get(B)!.answer = () => reset();
    await expect(call()).rejects.toMatchObject({ code: Code.Unavailable });
    expect(counts()).toEqual({ [A]: 1, [B]: 1 });
  });

  it("does not skip an endpoint for an error its server answered", async () => {
    const { call, endpoints, counts } = balancer([A, B]);
    await call(); // A
    endpoints.get(B)!.answer = () => new ConnectError("database unavailable", Code.Unavailable);
    await expect(call()).rejects.toMatchObject({ code: Code.Unavailable });
    endpoints.get(B)!.answer = "ok";
    for (let i = 0; i < 4; i += 1) await call();
    expect(counts()).toEqual({ [A]: 3, [B]: 3 });
  });

  it("fails a refused call when no other endpoint exists", async () => {
    const { call, endpoints, counts } = balancer([A]);
    await call();
    endpoints.get(A)!.answer = () => refused();
    await expect(call()).rejects.toMatchObject({ code: Code.Unavailable });
    expect(counts()).toEqual({ [A]: 2 });
  });

  it("does not repeat a refused stream (its input may have been read)", async () => {
    const { transport, endpoints } = balancer([A, B]);
    const open = () => openWatch(transport);
    await open(); // A
    endpoints.get(B)!.answer = () => refused();
    await expect(open()).rejects.toMatchObject({ code: Code.Unavailable });
    expect([...endpoints.values()].map((e) => e.calls.length)).toEqual([1, 1]);
  });
});

describe("BalancingTransport: a call whose connection failed", () => {
  it.each(lostConnections)("rejects with Unavailable after %s, the original as cause", async (_, failure) => {
    const { call, endpoints } = balancer([A]);
    await call();
    const original = failure();
    endpoints.get(A)!.answer = () => original;
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectError);
    expect(error).toMatchObject({ code: Code.Unavailable, cause: original });
    expect((error as ConnectError).rawMessage).toBe("the connection to the service replica failed");
  });

  it("rejects a stream that could not be opened with Unavailable", async () => {
    const { transport, endpoints } = balancer([A]);
    await openWatch(transport);
    const original = reset();
    endpoints.get(A)!.answer = () => original;
    await expect(openWatch(transport)).rejects.toMatchObject({ code: Code.Unavailable, cause: original });
  });

  it("fails a stream whose connection died while it was read with Unavailable", async () => {
    const { transport, endpoints } = balancer([A]);
    await openWatch(transport);
    const original = streamClosed("CANCEL", 0x8, Code.Canceled);
    endpoints.get(A)!.streamFailure = original;
    const response = await openWatch(transport);
    const read = (async () => {
      for await (const _ of response.message) void _;
    })();
    await expect(read).rejects.toMatchObject({ code: Code.Unavailable, cause: original });
  });

  it("passes a server's own error through as it is, even one naming a closed stream", async () => {
    const { call, endpoints } = balancer([A]);
    await call();
    for (const answer of [
      answered("no such experiment", Code.NotFound),
      // A server passing on what its own downstream call raised: still the server's answer.
      answered("http/2 stream closed with error code CANCEL (0x8)", Code.Canceled),
    ]) {
      endpoints.get(A)!.answer = () => answer;
      await expect(call()).rejects.toBe(answer);
    }
  });

  it("leaves an exceeded deadline DeadlineExceeded", async () => {
    const { call, endpoints } = balancer([A]);
    await call();
    const deadline = new ConnectError("the operation timed out", Code.DeadlineExceeded);
    endpoints.get(A)!.answer = () => deadline;
    await expect(call(50)).rejects.toBe(deadline);
  });
});
