/**
 * Connect interceptors shared by every service (server side) and by callers of services
 * (client side: the gateway, and the rare service-to-service call).
 *
 * Server order matters; use `serverInterceptors(...)` or list them as
 *   [traceInterceptor(logger), errorInterceptor(logger), principalInterceptor(verifier, ...),
 *    safeTextInterceptor()]
 * The first entry is the outermost layer: the trace context exists before anything logs, the
 * call's access line (rpc-call-log.ts) sees the final outcome, error mapping sees
 * authentication failures, and the handler runs with the principal.
 * serverInterceptors() puts rpcMetricsInterceptor() (rpc-metrics.ts) around them all.
 */
import { create } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createContextKey,
  type ContextValues,
  type Interceptor,
  type StreamResponse,
  type UnaryResponse,
} from "@connectrpc/connect";
import { ErrorDetailSchema, FieldViolationSchema, type ErrorDetail } from "@petri/contracts/common";
import { systemClock, type Clock } from "./clock.js";
import {
  createRequestContext,
  currentRequestContext,
  iterateWithRequestContext,
  runWithRequestContext,
  type RequestContext,
} from "./context.js";
import { DomainError, ValidationError, type DomainErrorKind } from "./errors.js";
import type { Logger } from "./logger.js";
import { safeTextInterceptor } from "./message-text.js";
import { endWithStream, startRpcCallLog } from "./rpc-call-log.js";
import { startRpcClientSpan, startRpcServerSpan } from "./tracing/rpc-spans.js";
import { context as otelContext } from "@opentelemetry/api";
import { rpcMetricsInterceptor } from "./rpc-metrics.js";
import {
  InvalidInternalTokenError,
  PRINCIPAL_HEADER,
  type InternalTokenIssuer,
  type IssuedInternalToken,
  type Principal,
} from "./principal.js";

export const REQUEST_ID_HEADER = "x-request-id";

/** The verified principal of the current call: `ctx.values.get(kPrincipal)` in a handler. */
export const kPrincipal = createContextKey<Principal | undefined>(undefined, {
  description: "petri principal",
});

/**
 * The request context traceInterceptor started for this call: the principal interceptor adds
 * the principal to it rather than entering a second context around the rest of the chain.
 */
const kRequestContext = createContextKey<RequestContext | undefined>(undefined, {
  description: "petri request context of the call",
});

/** Health checks need no principal: probes and load balancers call them. */
export const HEALTH_PROCEDURES: readonly string[] = [
  "grpc.health.v1.Health/Check",
  "grpc.health.v1.Health/Watch",
];

type AnyRequest = Parameters<Parameters<Interceptor>[0]>[0];
type AnyResponse = UnaryResponse | StreamResponse;
type Next = (req: AnyRequest) => Promise<AnyResponse>;

/** "petri.identity.v1.IdentityService/GetAccount": the form publicProcedures uses. */
export function procedureOf(req: { service: { typeName: string }; method: { name: string } }): string {
  return `${req.service.typeName}/${req.method.name}`;
}

/**
 * Calls `next` inside `context`, including the later pulls of a streaming response, which
 * Connect performs after the interceptor has returned.
 */
async function nextInContext(context: RequestContext, req: AnyRequest, next: Next): Promise<AnyResponse> {
  const res = await runWithRequestContext(context, () => next(req));
  if (!res.stream) return res;
  return { ...res, message: iterateWithRequestContext(context, res.message) };
}

/** A ConnectError carrying a petri.common.v1.ErrorDetail, as every service error does. */
export function connectErrorWithDetail(
  message: string,
  code: Code,
  reason: string,
  details: Record<string, unknown> = {},
  fieldViolations: ReadonlyArray<{ field: string; code: string; message: string }> = [],
): ConnectError {
  const detail = create(ErrorDetailSchema, {
    reason,
    metadata: flatMetadata(details),
    fieldViolations: fieldViolations.map((v) =>
      create(FieldViolationSchema, { field: v.field, code: v.code, message: v.message }),
    ),
    detailsJson: Object.keys(details).length > 0 ? safeJson(details) : "",
  });
  return new ConnectError(message, code, undefined, [{ desc: ErrorDetailSchema, value: detail }]);
}

/** Reads the ErrorDetail back from a ConnectError (the gateway's side of the contract). */
export function errorDetailOf(err: ConnectError): ErrorDetail | undefined {
  return err.findDetails(ErrorDetailSchema)[0];
}

/** details_json parsed back into an object ({} when absent or unreadable). */
export function errorDetailsObject(detail: ErrorDetail | undefined): Record<string, unknown> {
  if (!detail?.detailsJson) return {};
  try {
    const parsed: unknown = JSON.parse(detail.detailsJson);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

// ---------------------------------------------------------------------------------------
// Authentication: the internal principal token

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

/**
 * Where a client gets tokens: an issuer (InternalTokenSigner; tokens are cached per
 * principal until shortly before they expire) or a function (called for every request;
 * it does its own caching).
 */
export type PrincipalTokenSource = InternalTokenIssuer | ((principal: Principal) => string | Promise<string>);

export interface AttachPrincipalOptions {
  clock?: Clock;
  /** Mint a new token when the cached one has less than this left. Default 10 s. */
  refreshBeforeExpiryMs?: number;
  /** Bound on cached principals (oldest evicted first). Default 10,000. */
  maxCachedPrincipals?: number;
}

interface CachedToken {
  pending: Promise<IssuedInternalToken>;
  issued?: IssuedInternalToken;
}

/** Per-principal token cache: signing costs far more than a Map lookup on every call. */
export class PrincipalTokenCache {
  private readonly entries = new Map<string, CachedToken>();
  private readonly clock: Clock;
  private readonly refreshBeforeExpiryMs: number;
  private readonly maxEntries: number;

  constructor(
    private readonly issuer: InternalTokenIssuer,
    options: AttachPrincipalOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.refreshBeforeExpiryMs = options.refreshBeforeExpiryMs ?? 10_000;
    this.maxEntries = options.maxCachedPrincipals ?? 10_000;
  }

  async tokenFor(principal: Principal): Promise<string> {
    const key = [principal.accountId, principal.role, principal.tier, principal.operatorId ?? ""].join(
      "\u0000",
    );
    const cached = this.entries.get(key);
    if (cached && !cached.issued) return (await cached.pending).token; // a concurrent call is signing
    if (cached?.issued) {
      const remaining = cached.issued.expiresAt.getTime() - this.clock.now().getTime();
      if (remaining > this.refreshBeforeExpiryMs) return cached.issued.token;
    }
    const entry: CachedToken = { pending: this.issuer.issue(principal) };
    this.entries.delete(key); // re-insert so Map order is least-recently-minted first
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    try {
      entry.issued = await entry.pending;
      return entry.issued.token;
    } catch (error) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw error;
    }
  }
}

/**
 * Client: sets `x-petri-principal` for the principal of this call, taken from the call's
 * `contextValues` (kPrincipal) or else from the current request context. A header the
 * caller set explicitly is left alone; with no principal the call goes out without one.
 */
export function attachPrincipal(
  source: PrincipalTokenSource,
  options: AttachPrincipalOptions = {},
): Interceptor {
  const tokenFor =
    typeof source === "function"
      ? async (principal: Principal) => source(principal)
      : (
          (cache) => (principal: Principal) =>
            cache.tokenFor(principal)
        )(new PrincipalTokenCache(source, options));
  return (next) => async (req) => {
    if (!req.header.has(PRINCIPAL_HEADER)) {
      const principal = req.contextValues.get(kPrincipal) ?? currentRequestContext()?.principal;
      if (principal) req.header.set(PRINCIPAL_HEADER, await tokenFor(principal));
    }
    return next(req);
  };
}

// ---------------------------------------------------------------------------------------
// Tracing

/**
 * Server: continues the caller's trace (or starts one) with the call's server span
 * (tracing/rpc-spans.ts), adopts the caller's request id (or makes one), and runs the handler
 * inside that request context. The request id is echoed in the response headers. With a
 * logger, each call ends with its debug access line (rpc-call-log.ts).
 */
export function traceInterceptor(logger?: Logger): Interceptor {
  return (next) => async (req) => {
    const span = startRpcServerSpan(req);
    const context = createRequestContext({
      requestId: req.header.get(REQUEST_ID_HEADER),
      otel: span.context,
    });
    req.contextValues.set(kRequestContext, context);
    const log = startRpcCallLog(logger, procedureOf(req), context);
    const end = (error?: unknown) => {
      log?.end(error);
      span.end(error);
    };
    let res: AnyResponse;
    try {
      res = await nextInContext(context, req, next);
    } catch (error) {
      end(error);
      throw error;
    }
    res.header.set(REQUEST_ID_HEADER, context.requestId);
    if (!res.stream) {
      end();
      return res;
    }
    return { ...res, message: endWithStream(res.message, end) };
  };
}

/**
 * Client: the call's client span, sent as the callee's parent (traceparent), and the request
 * id, unless already set.
 */
export function propagateTrace(): Interceptor {
  return (next) => async (req) => {
    const context = currentRequestContext();
    if (context && !req.header.has(REQUEST_ID_HEADER)) req.header.set(REQUEST_ID_HEADER, context.requestId);
    const span = startRpcClientSpan(req);
    let res: AnyResponse;
    try {
      res = await otelContext.with(span.context, () => next(req));
    } catch (error) {
      span.end(error);
      throw error;
    }
    if (!res.stream) {
      span.end();
      return res;
    }
    return { ...res, message: endWithStream(res.message, (error) => span.end(error)) };
  };
}

// ---------------------------------------------------------------------------------------
// Errors

const CODE_BY_KIND: Record<DomainErrorKind, Code> = {
  validation_failed: Code.InvalidArgument,
  not_found: Code.NotFound,
  invalid_state: Code.FailedPrecondition,
  conflict: Code.AlreadyExists,
  forbidden: Code.PermissionDenied,
  safety_rejected: Code.PermissionDenied,
  unauthorized: Code.Unauthenticated,
  rate_limit_exceeded: Code.ResourceExhausted,
  unavailable: Code.Unavailable,
};

/**
 * The Connect code for a domain error. One special case: a ConflictError whose details say
 * `retryable: true` (an optimistic-concurrency loss, where retrying may succeed) is Aborted;
 * every other conflict (duplicate create, idempotency-key reuse) is AlreadyExists. Both are
 * 409 at the gateway; the code tells a caller whether a retry can help.
 */
export function connectCodeFor(error: DomainError): Code {
  if (error.kind === "conflict" && error.details.retryable === true) return Code.Aborted;
  return CODE_BY_KIND[error.kind];
}

function safeJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}

/**
 * Flat string facts for ErrorDetail.metadata: strings, numbers and booleans as text, lists
 * of those joined with ","; nested objects only travel in details_json.
 */
function flatMetadata(details: Record<string, unknown>): Record<string, string> {
  const metadata: Record<string, string> = {};
  const scalar = (v: unknown): v is string | number | boolean | bigint =>
    typeof v === "string" || typeof v === "number" || typeof v === "boolean" || typeof v === "bigint";
  for (const [key, value] of Object.entries(details)) {
    if (scalar(value)) metadata[key] = String(value);
    else if (Array.isArray(value) && value.every(scalar)) metadata[key] = value.map(String).join(",");
  }
  return metadata;
}

/** The ConnectError a DomainError becomes on the wire. */
export function domainErrorToConnectError(error: DomainError): ConnectError {
  return connectErrorWithDetail(
    error.message,
    connectCodeFor(error),
    error.code,
    error.details,
    error instanceof ValidationError ? error.fieldErrors : [],
  );
}

/**
 * Any thrown value -> what the caller may see. ConnectErrors (including a downstream
 * service's, which must not be flattened) pass through unchanged; unknown errors become
 * Internal "internal error", after being logged with their stack (never sent).
 */
export function toConnectError(
  error: unknown,
  logger: Logger,
  call: { procedure: string; signal?: AbortSignal },
): ConnectError {
  if (error instanceof ConnectError) return error;
  if (error instanceof DomainError) {
    logger.debug({ procedure: call.procedure, code: error.code }, "rpc failed with a domain error");
    return domainErrorToConnectError(error);
  }
  // The call was cancelled or timed out and the handler's I/O gave up: report that, not a bug.
  if (call.signal?.aborted) {
    const reason: unknown = call.signal.reason;
    logger.warn({ err: error, procedure: call.procedure }, "rpc failed after its call was aborted");
    // The abort reason is a ConnectError for deadlines (DeadlineExceeded) and server shutdown.
    return reason instanceof ConnectError ? reason : new ConnectError("request cancelled", Code.Canceled);
  }
  logger.error({ err: error, procedure: call.procedure }, "unhandled error in rpc handler");
  return connectErrorWithDetail("internal error", Code.Internal, "internal");
}

/** Server: maps DomainErrors and unexpected errors (see toConnectError), for unary and streams. */
export function errorInterceptor(logger: Logger): Interceptor {
  return (next) => async (req) => {
    let res: AnyResponse;
    try {
      res = await next(req);
    } catch (error) {
      throw toConnectError(error, logger, { procedure: procedureOf(req), signal: req.signal });
    }
    if (!res.stream) return res;
    const call = { procedure: procedureOf(req), signal: req.signal };
    const source = res.message;
    async function* mapped() {
      try {
        yield* source;
      } catch (error) {
        throw toConnectError(error, logger, call);
      }
    }
    return { ...res, message: mapped() };
  };
}

// ---------------------------------------------------------------------------------------

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
