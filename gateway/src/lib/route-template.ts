/**
 * The route template a request is reported under, by its access line and its metrics alike:
 * the OpenAPI template of the route that answered ("/experiments/{experiment_id}"), or
 * UNMATCHED_ROUTE; never the request's own path, which can carry ids and secrets.
 */
import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import { UNMATCHED_ROUTE } from "@petri/service-kit";

// Routes live as long as the app: each one's template is built once.
const templates = new WeakMap<object, string>();

/** The template of the route that answered, built once per route. */
export function routeTemplate(c: Context): string {
  // Middleware is registered for method ALL; the last other match is the route's handler.
  const route = matchedRoutes(c).findLast((r) => r.method !== "ALL");
  if (!route) return UNMATCHED_ROUTE;
  let template = templates.get(route);
  if (template === undefined) {
    template = route.path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");
    templates.set(route, template);
  }
  return template;
}
