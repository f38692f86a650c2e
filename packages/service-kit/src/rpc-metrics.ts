/**
 * Server-side RPC metrics: calls by procedure and status code, and their duration by
 * procedure. Outermost in the server chain, so a call refused by any later interceptor
 * (authentication, input hygiene) is counted with the code its caller saw.
 *
 * For a server stream the duration is the time to the stream's start, not its whole life.
 */
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import { FAST_SECONDS_BUCKETS, counter, histogram } from "./metrics.js";

const rpcCalls = counter({
  name: "petri_rpc_server_calls_total",
  help: "RPCs this process served, by procedure and status code (ok, or the Connect error code)",
  labelNames: ["procedure", "code"],
});

const rpcDuration = histogram({
  name: "petri_rpc_server_duration_seconds",
  help: "Time from receiving an RPC to its response (a stream: to its first message), by procedure",
  labelNames: ["procedure"],
  buckets: FAST_SECONDS_BUCKETS,
});

/** "not_found" for Code.NotFound: the Connect protocol's spelling of each code, as on the wire. */
const CODE_LABELS = new Map<Code, string>(
  Object.values(Code)
    .filter((value): value is Code => typeof value === "number")
    .map((code) => [code, codeToString(code)]),
);

interface ProcedureChildren {
  duration: { observe(seconds: number): void };
  calls: Map<string, { inc(): void }>;
  procedure: string;
}

/** Label children per method descriptor (stable for the life of the router), bound on first use. */
const byMethod = new WeakMap<object, ProcedureChildren>();

function childrenFor(req: { service: { typeName: string }; method: { name: string } }): ProcedureChildren {
  let children = byMethod.get(req.method);
  if (!children) {
    const procedure = `${req.service.typeName}/${req.method.name}`;
    children = { procedure, duration: rpcDuration.labels(procedure), calls: new Map() };
    byMethod.set(req.method, children);
  }
  return children;
}

function countCall(children: ProcedureChildren, code: string): void {
  let child = children.calls.get(code);
  if (!child) {
    child = rpcCalls.labels(children.procedure, code);
    children.calls.set(code, child);
  }
  child.inc();
}

export function rpcMetricsInterceptor(): Interceptor {
  return (next) => async (req) => {
    const children = childrenFor(req);
    const started = performance.now();
    try {
      const res = await next(req);
      countCall(children, "ok");
      return res;
    } catch (error) {
      countCall(children, CODE_LABELS.get(ConnectError.from(error).code) ?? "unknown");
      throw error;
    } finally {
      children.duration.observe((performance.now() - started) / 1000);
    }
  };
}
