/**
 * A service's access line: one debug "rpc" line per call, written when the call ends (a
 * streaming call when its stream ends), with the procedure, the outcome ("ok" or the Connect
 * code name, as on the wire: "not_found") and the duration in milliseconds. The request
 * context adds request_id, trace_id, span_id and account_id, as on every line.
 *
 * Debug, not info: every call a service serves comes from a gateway request that has its own
 * info line already. At info level a call costs one level check and nothing else.
 */
import { ConnectError } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import { type RequestContext, runWithRequestContext } from "./context.js";
import type { Logger } from "./logger.js";

export const RPC_CALL_LOG_MESSAGE = "rpc";

export interface RpcCallLog {
  /** Writes the line: `error` is what the call failed with, undefined when it succeeded. */
  end(error?: unknown): void;
}

/** Starts timing a call when debug lines are written; undefined (nothing to do) when not. */
export function startRpcCallLog(
  logger: Logger | undefined,
  procedure: string,
  context: RequestContext,
): RpcCallLog | undefined {
  if (!logger?.isLevelEnabled("debug")) return undefined;
  const startedAt = performance.now();
  let ended = false;
  return {
    end(error?: unknown) {
      if (ended) return;
      ended = true;
      const code = error === undefined ? "ok" : codeToString(ConnectError.from(error).code);
      const durationMs = Math.round((performance.now() - startedAt) * 10) / 10;
      // In the call's context: the principal is known by now, so the line names the account.
      runWithRequestContext(context, () =>
        logger.debug({ procedure, code, duration_ms: durationMs }, RPC_CALL_LOG_MESSAGE),
      );
    },
  };
}

/** `source`, calling `end` once the stream ends, fails, or its reader stops early. */
export function endWithStream<T>(source: AsyncIterable<T>, end: (error?: unknown) => void): AsyncIterable<T> {
  async function* watched() {
    let failure: unknown;
    try {
      yield* source;
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      end(failure);
    }
  }
  return watched();
}
