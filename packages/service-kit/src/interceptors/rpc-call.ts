/** What every interceptor of this package needs to know about a call. */
import {
  createContextKey,
  type Interceptor,
  type StreamResponse,
  type UnaryResponse,
} from "@connectrpc/connect";
import { iterateWithRequestContext, runWithRequestContext, type RequestContext } from "../context.js";

/**
 * The request context traceInterceptor started for this call: the principal interceptor adds
 * the principal to it rather than entering a second context around the rest of the chain.
 */
export const kRequestContext = createContextKey<RequestContext | undefined>(undefined, {
  description: "petri request context of the call",
});

export type AnyRequest = Parameters<Parameters<Interceptor>[0]>[0];
export type AnyResponse = UnaryResponse | StreamResponse;
export type Next = (req: AnyRequest) => Promise<AnyResponse>;

/** "petri.identity.v1.IdentityService/GetAccount": the form publicProcedures uses. */
export function procedureOf(req: { service: { typeName: string }; method: { name: string } }): string {
  return `${req.service.typeName}/${req.method.name}`;
}

/**
 * Calls `next` inside `context`, including the later pulls of a streaming response, which
 * Connect performs after the interceptor has returned.
 */
export async function nextInContext(
  context: RequestContext,
  req: AnyRequest,
  next: Next,
): Promise<AnyResponse> {
  const res = await runWithRequestContext(context, () => next(req));
  if (!res.stream) return res;
  return { ...res, message: iterateWithRequestContext(context, res.message) };
}
