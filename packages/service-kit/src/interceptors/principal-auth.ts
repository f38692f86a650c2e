/** Server side of authentication: the internal principal token every call but health checks carries. */
import { Code, createContextKey, type ContextValues, type Interceptor } from "@connectrpc/connect";
import { createRequestContext, currentRequestContext } from "../context.js";
import type { Logger } from "../logger.js";
import { InvalidInternalTokenError, PRINCIPAL_HEADER, type Principal } from "../principal.js";
import { connectErrorWithDetail } from "./error-detail.js";
import { kRequestContext, nextInContext, procedureOf } from "./rpc-call.js";

/** The verified principal of the current call: `ctx.values.get(kPrincipal)` in a handler. */
export const kPrincipal = createContextKey<Principal | undefined>(undefined, {
  description: "petri principal",
});

/** Health checks need no principal: probes and load balancers call them. */
export const HEALTH_PROCEDURES: readonly string[] = [
  "grpc.health.v1.Health/Check",
  "grpc.health.v1.Health/Watch",
];

export interface PrincipalInterceptorOptions {
  /**
   * The complete list of procedures ("package.Service/Method") callable without a token;
   * HEALTH_PROCEDURES when omitted. (serverInterceptors() always adds HEALTH_PROCEDURES.)
   * A public call that does carry a token still has it verified.
   */
  publicProcedures?: readonly string[];
  /** Logs why a token was refused (never sent to the caller). */
  logger?: Logger;
}

/**
 * Server: requires a valid `x-petri-principal` token and exposes the principal both as the
 * `kPrincipal` context value and in the request context (for logs and outgoing calls).
 */
export function principalInterceptor(
  verifier: { verify(token: string): Promise<Principal> },
  options: PrincipalInterceptorOptions = {},
): Interceptor {
  const publicProcedures = new Set(options.publicProcedures ?? HEALTH_PROCEDURES);
  return (next) => async (req) => {
    const token = req.header.get(PRINCIPAL_HEADER);
    if (!token) {
      if (publicProcedures.has(procedureOf(req))) return next(req);
      throw connectErrorWithDetail("missing internal principal token", Code.Unauthenticated, "unauthorized");
    }
    let principal: Principal;
    try {
      principal = await verifier.verify(token);
    } catch (error) {
      options.logger?.warn(
        {
          procedure: procedureOf(req),
          reason: error instanceof InvalidInternalTokenError ? error.reason : String(error),
        },
        "refused internal principal token",
      );
      throw connectErrorWithDetail("invalid internal principal token", Code.Unauthenticated, "unauthorized");
    }
    req.contextValues.set(kPrincipal, principal);
    const callContext = req.contextValues.get(kRequestContext);
    if (callContext) {
      // This call's own context, current for the rest of the chain already.
      callContext.principal = principal;
      return next(req);
    }
    const context = { ...(currentRequestContext() ?? createRequestContext()), principal };
    return nextInContext(context, req, next);
  };
}

/** In a handler: the verified principal, or Unauthenticated (for procedures that need one). */
export function requirePrincipal(ctx: { values: ContextValues }): Principal {
  const principal = ctx.values.get(kPrincipal);
  if (!principal)
    throw connectErrorWithDetail("authentication required", Code.Unauthenticated, "unauthorized");
  return principal;
}
