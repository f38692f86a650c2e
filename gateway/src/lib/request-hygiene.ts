/**
 * Input hygiene for every route, before any handler or service sees the request:
 *
 *   - a path parameter that cannot name anything (an id without its format, PATH_ID_PREFIXES;
 *     a name with text PostgreSQL refuses or over MAX_PATH_NAME_LENGTH) is 404 not_found;
 *   - a query parameter (name or value), or any string or object key of a
 *     JSON body that carries NUL or is not well-formed Unicode (text PostgreSQL refuses) is
 *     422 validation_failed naming the field;
 *   - a JSON body nesting arrays and objects deeper than MAX_JSON_DEPTH is 422, found by one
 *     scan of the text before it is parsed (deep values overflow the stack of JSON.stringify,
 *     zod and every other recursive walk further on).
 *
 * The body is parsed here once; Hono's JSON validator and handlers get that value from
 * c.req.json(). Operations in STREAMED_BODY_OPERATIONS read their body themselves (streamed);
 * they can reuse checkJsonText.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import {
  type FieldError,
  MAX_JSON_DEPTH,
  isId,
  jsonNestingExceeds,
  tooDeepFieldError,
  unsafeTextFieldError,
  unsafeTextInJson,
  unsafeTextReason,
} from "@petri/service-kit";
import { operationKey } from "./access.js";
import { STREAMED_BODY_OPERATIONS } from "./body-limit.js";
import { PATH_ID_PREFIXES } from "./path-ids.js";
import { hasRequestBody } from "./request-body.js";
import { errorBody } from "./problem.js";

/** The longest free-text path parameter (template and provider names, docs assets). */
export const MAX_PATH_NAME_LENGTH = 100;

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

export type JsonTextCheck =
  { ok: true; value: unknown } | { ok: false; errors: FieldError[]; message: string };

/**
 * JSON text -> its value, or why it is refused: nested deeper than maxDepth (checked before
 * parsing), not JSON, or a string or key PostgreSQL refuses (named by its dotted path).
 */
export function checkJsonText(text: string, maxDepth: number = MAX_JSON_DEPTH): JsonTextCheck {
  if (jsonNestingExceeds(text, maxDepth))
    return {
      ok: false,
      message: `the request body nests deeper than ${maxDepth} levels`,
      errors: [tooDeepFieldError("", maxDepth)],
    };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      ok: false,
      message: "the request body is not valid JSON",
      errors: [{ field: "", code: "invalid_value", message: "malformed JSON" }],
    };
  }
  const errors = unsafeTextInJson(value);
  if (errors.length > 0)
    return { ok: false, message: "the request contains text that cannot be stored", errors };
  return { ok: true, value };
}

/** Field errors for query and path parameters PostgreSQL would refuse (names and values). */
export function unsafeParameters(parameters: Record<string, readonly string[]>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, values] of Object.entries(parameters)) {
    const nameReason = unsafeTextReason(name);
    if (nameReason) {
      errors.push(unsafeTextFieldError(JSON.stringify(name), nameReason));
      continue;
    }
    const reason = values.map(unsafeTextReason).find((r) => r !== undefined);
    if (reason) errors.push(unsafeTextFieldError(name, reason));
  }
  return errors;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The path parameters of `requestPath` under a Hono route path ("/experiments/:experiment_id"). */
export function pathParameters(routePath: string, requestPath: string): Record<string, string> {
  const pattern = routePath.split("/");
  const actual = requestPath.split("/");
  const params: Record<string, string> = {};
  if (pattern.length !== actual.length) return params;
  pattern.forEach((segment, i) => {
    if (segment.startsWith(":")) params[segment.slice(1).replace(/\{.*$/, "")] = decodeSegment(actual[i]!);
  });
  return params;
}

/**
 * Whether a path parameter could name anything: an id has its format (PATH_ID_PREFIXES); a
 * free-text name (template, provider, docs asset) is at most MAX_PATH_NAME_LENGTH characters
 * of text PostgreSQL accepts. A path names a resource, so one that cannot exist is 404, like
 * any other unknown resource, rather than a validation error.
 */
function canNameAResource(name: string, value: string): boolean {
  const prefix = PATH_ID_PREFIXES[name];
  if (prefix !== undefined) return isId(prefix, value);
  return value.length <= MAX_PATH_NAME_LENGTH && unsafeTextReason(value) === undefined;
}

function invalid(c: Context, message: string, errors: FieldError[]): Response {
  return c.json(errorBody("validation_failed", message, { errors }), 422);
}

export function requestHygiene(): MiddlewareHandler {
  return async (c, next) => {
    const route = matchedRoutes(c).find((r) => r.method !== "ALL");
    if (!route) return next(); // 404 or 405 follow

    const params = pathParameters(route.path, c.req.path);
    for (const [name, value] of Object.entries(params)) {
      if (!canNameAResource(name, value))
        return c.json(
          errorBody("not_found", `no ${name.replace(/_id$/, "").replace(/_/g, " ")} has this id`),
          404,
        );
    }
    const errors = unsafeParameters(c.req.queries());
    if (errors.length > 0) return invalid(c, "the request contains text that cannot be stored", errors);

    const mediaType = c.req.header("content-type")?.split(";", 1)[0]?.trim() ?? "";
    if (!JSON_MEDIA_TYPE.test(mediaType) || !hasRequestBody(c)) return next();
    if (STREAMED_BODY_OPERATIONS.has(operationKey(route.method, route.path))) return next();

    const text = await c.req.text();
    // No body at all: the route's validator (if it has one) says so, as it always did.
    if (text.trim() === "") return next();
    const checked = checkJsonText(text);
    if (!checked.ok) return invalid(c, checked.message, checked.errors);
    // Hono's json() would parse the cached text again; the validator and handlers get this value.
    c.req.json = <T>() => Promise.resolve(checked.value as T);
    return next();
  };
}
