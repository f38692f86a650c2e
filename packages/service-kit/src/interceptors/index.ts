/**
 * Connect interceptors, one module per concern: the error shape (error-detail), error mapping,
 * the internal principal token (principal-auth on the server, principal-tokens on the client),
 * trace context and request ids (trace), and the standard chains that order them (chains).
 */
export { procedureOf } from "./rpc-call.js";
export { connectErrorWithDetail, errorDetailOf, errorDetailsObject } from "./error-detail.js";
export {
  connectCodeFor,
  domainErrorToConnectError,
  errorInterceptor,
  toConnectError,
} from "./error-mapping.js";
export {
  HEALTH_PROCEDURES,
  kPrincipal,
  principalInterceptor,
  requirePrincipal,
  type PrincipalInterceptorOptions,
} from "./principal-auth.js";
export {
  PrincipalTokenCache,
  attachPrincipal,
  type AttachPrincipalOptions,
  type PrincipalTokenSource,
} from "./principal-tokens.js";
export { REQUEST_ID_HEADER, propagateTrace, traceInterceptor } from "./trace.js";
export { clientInterceptors, serverInterceptors, type ServerInterceptorOptions } from "./chains.js";
