import { newId } from "@petri/service-kit";
import { expect } from "vitest";
import { registerAndLogIn } from "./scenarios.js";
import { Scrape } from "./support/metrics-scrape.js";

export interface MetricsTarget {
  /** The gateway the requests go to. */
  baseUrl: string;
  /** Every /metrics endpoint of the deployment (standalone: one; cluster: gateways and services). */
  metricsUrls: readonly string[];
}

const GET_EXPERIMENT = "petri.experiments.v1.ExperimentsService/GetExperiment";

/**
 * Known requests move the counters by exactly their number: N GETs of one route, one 404 of
 * a route (and the RPC behind it answering not_found), one request no route matches.
 */
export async function countersMoveByKnownRequests(target: MetricsTarget): Promise<void> {
  const { baseUrl } = target;
  const { accessToken } = await registerAndLogIn(baseUrl, "metrics");
  const auth = { authorization: `Bearer ${accessToken}` };
  const missingExperiment = newId("exp", new Date());

  const before = await Scrape.of(target.metricsUrls);
  const n = 4;
  for (let i = 0; i < n; i += 1) {
    const me = await fetch(`${baseUrl}/auth/me`, { headers: auth });
    expect(me.status).toBe(200);
    await me.arrayBuffer();
  }
  const notFound = await fetch(`${baseUrl}/experiments/${missingExperiment}`, { headers: auth });
  expect(notFound.status).toBe(404);
  await notFound.arrayBuffer();
  const unmatched = await fetch(`${baseUrl}/no/such/route/${missingExperiment}`);
  expect(unmatched.status).toBe(404);
  await unmatched.arrayBuffer();
  const after = await Scrape.of(target.metricsUrls);

  const moved = (name: string, labels: Record<string, string | RegExp>) =>
    after.value(name, labels) - before.value(name, labels);
  expect(moved("petri_http_requests_total", { method: "GET", route: "/auth/me", status: "200" })).toBe(n);
  expect(
    moved("petri_http_requests_total", {
      method: "GET",
      route: "/experiments/{experiment_id}",
      status: "404",
    }),
  ).toBe(1);
  expect(moved("petri_http_requests_total", { method: "GET", route: "(unmatched)", status: "404" })).toBe(1);
  expect(moved("petri_rpc_server_calls_total", { procedure: GET_EXPERIMENT, code: "not_found" })).toBe(1);
  // The parser folds a labelled histogram's series into one (its limitation): the duration
  // histograms' counts are checked by the unit tests (rpc-metrics, http-metrics); here, that they exist.
  expect(after.has("petri_http_request_duration_seconds")).toBe(true);
  expect(after.has("petri_rpc_server_duration_seconds")).toBe(true);
  // Route templates, never raw paths: no id became a label value.
  for (const series of after.series("petri_http_requests_total"))
    expect(JSON.stringify(series)).not.toContain(missingExperiment);
}

/** The families every deployment reports besides request counts. */
export async function processAndMessagingFamiliesAreThere(target: MetricsTarget): Promise<void> {
  const scrape = await Scrape.of(target.metricsUrls);
  for (const name of [
    "petri_process_resident_memory_bytes",
    "petri_nodejs_eventloop_lag_p99_seconds",
    "petri_db_pool_connections",
    "petri_outbox_unsent_events",
    "petri_outbox_oldest_unsent_age_seconds",
    "petri_dead_letters",
    "petri_consumer_pending_events",
  ])
    expect(scrape.has(name), name).toBe(true);
  const services = new Set(scrape.series("petri_outbox_unsent_events").map((labels) => labels.service));
  for (const service of ["identity", "experiments", "notifications"]) expect(services).toContain(service);
}
