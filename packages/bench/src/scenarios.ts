import { randomUUID } from "node:crypto";
import type { Population } from "./setup.js";
import { micRequest } from "@petri/testkit";

export interface BenchRequest {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** The scenarios `--scenarios` selects from: the load rows, then the two measured apart. */
export const SCENARIO_KEYS = ["health", "me", "get", "list", "post", "mixed", "webhook", "idle"] as const;
export type ScenarioKey = (typeof SCENARIO_KEYS)[number];

/** One row of the report: what is sent, to which side, request by request. */
export interface Scenario {
  /** Its name in --scenarios (the baselines have none: they always run). */
  key?: ScenarioKey;
  name: string;
  /** Builds request number `k` (spreads the load over accounts, keeps bodies unique where needed). */
  request(k: number): BenchRequest;
}

export function helloScenario(path: string): Scenario {
  return { name: "B1 hello", request: () => ({ method: "GET", path }) };
}

export function selectScenario(path: string): Scenario {
  return { name: "B2 select", request: () => ({ method: "GET", path }) };
}

/** The Petri load rows `selected`, over the accounts of `population` in turn. */
export function petriScenarios(population: Population, selected: readonly ScenarioKey[]): Scenario[] {
  const { requesters, operatorToken } = population;
  const who = (k: number) => requesters[k % requesters.length]!;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const body = JSON.stringify(micRequest("MIC of ampicillin (bench)"));
  const getById = (k: number): BenchRequest => ({
    method: "GET",
    path: `/experiments/${who(k).experimentId}`,
    headers: bearer(who(k).token),
  });
  const list = (k: number): BenchRequest => ({
    method: "GET",
    path: "/experiments?limit=20",
    headers: bearer(who(k).token),
  });
  const me = (k: number): BenchRequest => ({
    method: "GET",
    path: "/auth/me",
    headers: bearer(who(k).token),
  });
  // Each create is a new experiment: a fresh Idempotency-Key, or the gateway would replay the first.
  const create = (k: number): BenchRequest => ({
    method: "POST",
    path: "/experiments",
    headers: { ...bearer(who(k).token), "content-type": "application/json", "idempotency-key": randomUUID() },
    body,
  });
  const scenarios: Scenario[] = [
    {
      key: "health",
      name: "GET /health",
      // Anonymous and outside every rate limit (its readiness is cached for a second).
      request: () => ({ method: "GET", path: "/health" }),
    },
    { key: "me", name: "GET /auth/me", request: me },
    { key: "get", name: "GET /experiments/{id}", request: getById },
    { key: "list", name: "GET /experiments?limit=20", request: list },
    { key: "post", name: "POST /experiments", request: create },
  ];
  if (selected.includes("mixed")) {
    // 20 requests: a requester's reads dominate, some creates, and an operator browsing jobs.
    const mix = [
      getById,
      getById,
      getById,
      getById,
      getById,
      getById,
      getById,
      getById,
      list,
      list,
      list,
      list,
      list,
      me,
      me,
      me,
      create,
      create,
    ];
    const operatorJobs = (): BenchRequest => ({
      method: "GET",
      path: "/operator/jobs",
      headers: bearer(operatorToken),
    });
    scenarios.push({
      key: "mixed",
      name: "mixed requester/operator",
      request: (k) => (k % 20 >= mix.length ? operatorJobs() : mix[k % 20]!(k)),
    });
  }
  return scenarios.filter((scenario) => selected.includes(scenario.key!));
}
