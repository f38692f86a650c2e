/**
 * One service call of a request. Validation failures keep their code and details, and each
 * entry of details.errors names the offending field as `path` (the request-model path, as
 * POST /validate reports it) and as `field` (the name every other operation's validation
 * errors use). Every other error is rethrown for onError to map (lib/connect-errors.ts).
 */
import { ConnectError } from "@connectrpc/connect";
import { connectErrorToHttp } from "./connect-errors.js";
import { ApiError } from "./problem.js";

export async function callService<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ConnectError)) throw error;
    const { status, body } = connectErrorToHttp(error, "");
    if (status !== 422) throw error;
    const details = { ...body.error.details };
    if (Array.isArray(details.errors)) details.errors = details.errors.map(withPath);
    throw new ApiError(422, body.error.code, body.error.message, details);
  }
}

/** A validation error entry with both `field` and `path` set to the request path. */
export function withPath(entry: unknown): unknown {
  if (entry === null || typeof entry !== "object") return entry;
  const { field, path, code, message, ...rest } = entry as Record<string, unknown>;
  const where = typeof path === "string" ? path : typeof field === "string" ? field : "";
  return { field: where, path: where, code, message, ...rest };
}
