/** Domain errors and unexpected failures -> the ConnectError a caller may see. */
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { DomainError, ValidationError, type DomainErrorKind } from "../errors.js";
import type { Logger } from "../logger.js";
import { connectErrorWithDetail } from "./error-detail.js";
import { procedureOf, type AnyResponse } from "./rpc-call.js";

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
