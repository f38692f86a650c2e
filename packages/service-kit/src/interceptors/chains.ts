/**
 * The standard interceptor chains: every service's server side, and callers of services
 * (the gateway, and the rare service-to-service call).
 *
 * Server order matters; use `serverInterceptors(...)` or list them as
 *   [traceInterceptor(logger), errorInterceptor(logger), principalInterceptor(verifier, ...),
 *    safeTextInterceptor()]
 * The first entry is the outermost layer: the trace context exists before anything logs, the
 * call's access line (../rpc-call-log.ts) sees the final outcome, error mapping sees
 * authentication failures, and the handler runs with the principal.
 * serverInterceptors() puts rpcMetricsInterceptor() (../rpc-metrics.ts) around them all.
 */
import type { Interceptor } from "@connectrpc/connect";
import type { Logger } from "../logger.js";
import { safeTextInterceptor } from "../message-text.js";
import type { Principal } from "../principal.js";
import { rpcMetricsInterceptor } from "../rpc-metrics.js";
import { errorInterceptor } from "./error-mapping.js";
import { HEALTH_PROCEDURES, principalInterceptor } from "./principal-auth.js";
import {
  attachPrincipal,
  type AttachPrincipalOptions,
  type PrincipalTokenSource,
} from "./principal-tokens.js";
import { propagateTrace, traceInterceptor } from "./trace.js";

export interface ServerInterceptorOptions {
  /** Procedures callable without a principal, besides HEALTH_PROCEDURES. */
  publicProcedures?: readonly string[];
  logger: Logger;
  verifier: { verify(token: string): Promise<Principal> };
}

/** The standard server chain, in the right order (see the top of this file). */
export function serverInterceptors(options: ServerInterceptorOptions): Interceptor[] {
  return [
    rpcMetricsInterceptor(),
    traceInterceptor(options.logger),
    errorInterceptor(options.logger),
    principalInterceptor(options.verifier, {
      logger: options.logger,
      publicProcedures: [...HEALTH_PROCEDURES, ...(options.publicProcedures ?? [])],
    }),
    safeTextInterceptor(),
  ];
}

/** The standard client chain for calling a service. */
export function clientInterceptors(
  tokens: PrincipalTokenSource,
  options: AttachPrincipalOptions = {},
): Interceptor[] {
  return [propagateTrace(), attachPrincipal(tokens, options)];
}
