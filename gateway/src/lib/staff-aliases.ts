/**
 * The staff operations live under /admin. They started under /staff, so every /admin
 * operation that existed there keeps its old path as a deprecated alias: the same handler,
 * roles and schemas, marked `deprecated: true` in the OpenAPI document, so existing clients
 * keep working while new ones use /admin.
 */
import type { RouteConfig } from "@hono/zod-openapi";

export const ADMIN_PREFIX = "/admin";
export const LEGACY_STAFF_PREFIX = "/staff";

/** The /staff twin of an /admin route (register it with the same handler). */
export function legacyStaffAlias<R extends RouteConfig>(route: R): R {
  if (!route.path.startsWith(`${ADMIN_PREFIX}/`)) {
    throw new Error(`${route.path} is not an ${ADMIN_PREFIX} route`);
  }
  const method = route.method.toUpperCase();
  const successor = `${method} ${route.path}`;
  const alias = {
    ...route,
    path: LEGACY_STAFF_PREFIX + route.path.slice(ADMIN_PREFIX.length),
    operationId: `${route.operationId}Legacy`,
    deprecated: true,
    summary: `Deprecated alias of ${successor}`,
    description: [
      `Deprecated: use ${successor}, which behaves the same (the staff operations moved under ${ADMIN_PREFIX}). This path keeps answering for existing clients.`,
      route.description,
    ]
      .filter(Boolean)
      .join("\n\n"),
  };
  // Only the path, operationId and texts differ; the typed request and responses are the same.
  return alias as R;
}
