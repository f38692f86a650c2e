/**
 * One debug line per RPC a server receives ("rpc received", with its procedure and the
 * request's ids): which replica served which call, e.g. to check how a client spreads its
 * calls over replicas. At the default info level it costs one level comparison per call.
 */
import type { Interceptor } from "@connectrpc/connect";
import type { Logger } from "./logger.js";

export function rpcCallLogInterceptor(logger: Logger): Interceptor {
  return (next) => (req) => {
    if (logger.isLevelEnabled("debug")) {
      logger.debug({ procedure: `${req.service.typeName}/${req.method.name}` }, "rpc received");
    }
    return next(req);
  };
}
