import { OpenAPIHono } from "@hono/zod-openapi";
import {
  type Clock,
  type Logger,
  createRequestContext,
  newId,
  runWithRequestContext,
} from "@petri/service-kit";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { ServiceClients } from "./clients.js";
import { connectErrorToHttp, isConnectError } from "./connect-errors.js";
import { errorBody } from "./problem.js";

export interface GatewayDeps {
  clients: ServiceClients;
  logger: Logger;
  clock: Clock;
  /** Largest accepted request body. */
  maxBodyBytes?: number;
}

export interface GatewayEnv {
  Variables: { deps: GatewayDeps; requestId: string };
}

export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/** A router whose validation failures use the public error shape (422 validation_failed). */
export function createRouter() {
  return new OpenAPIHono<GatewayEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      const errors = result.error.issues.map((issue) => ({
        field: issue.path.join("."),
        code:
          issue.code === "invalid_type" && issue.input === undefined ? "missing_required" : "invalid_value",
        message: issue.message,
      }));
      return c.json(errorBody("validation_failed", "the request is invalid", { errors }), 422);
    },
  });
}

/** The gateway app: request ids, trace context, body limit, one error shape everywhere. */
export function createApp(deps: GatewayDeps) {
  const app = createRouter();
  const maxBodyBytes = deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  app.use("*", async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId =
      incoming && /^[\w.-]{1,128}$/.test(incoming) ? incoming : newId("req", deps.clock.now());
    c.set("requestId", requestId);
    c.set("deps", deps);
    c.header("x-request-id", requestId);
    const context = createRequestContext({ parentTraceparent: c.req.header("traceparent"), requestId });
    await runWithRequestContext(context, () => next());
  });

  app.use(
    "*",
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: (c) =>
        c.json(
          errorBody("payload_too_large", `the request body is larger than ${maxBodyBytes} bytes`, {
            max_bytes: maxBodyBytes,
          }),
          413,
        ),
    }),
  );

  app.notFound((c) => c.json(errorBody("not_found", `no route for ${c.req.method} ${c.req.path}`), 404));

  app.onError((error, c) => {
    const requestId = c.get("requestId") ?? "unknown";
    if (isConnectError(error)) {
      const mapped = connectErrorToHttp(error, requestId);
      if (mapped.status >= 500)
        deps.logger.error({ err: error, request_id: requestId }, "service call failed");
      return c.json(mapped.body, mapped.status);
    }
    if (error instanceof HTTPException && error.status === 400) {
      // Hono's validator throws 400 for a body that is not JSON at all.
      return c.json(
        errorBody("validation_failed", "the request body is not valid JSON", { errors: [] }),
        422,
      );
    }
    if (error instanceof HTTPException && error.status < 500) {
      return c.json(errorBody("bad_request", error.message), error.status);
    }
    deps.logger.error({ err: error, request_id: requestId }, "unhandled gateway error");
    return c.json(errorBody("internal_error", "internal error", { request_id: requestId }), 500);
  });

  return app;
}
