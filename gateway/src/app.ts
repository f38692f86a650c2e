import { type GatewayDeps, createApp } from "./lib/create-app.js";
import { authRouter } from "./routes/auth/auth.index.js";
import { healthRouter } from "./routes/health/health.index.js";

export const API_VERSION = "0.1.0";

/** The public REST API: every route, and its OpenAPI 3.1 description at /openapi.json. */
export function createGateway(deps: GatewayDeps) {
  const app = createApp(deps);
  app.route("/", healthRouter);
  app.route("/", authRouter);
  app.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: { title: "Petri API", version: API_VERSION, description: "The Petri experiment marketplace." },
  });
  return app;
}
