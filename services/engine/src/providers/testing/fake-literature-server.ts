/**
 * A fake of the three literature services the engine calls, for tests:
 *   {url}/europepmc/search?query=...&pageSize=N      Europe PMC REST search (format=json)
 *   {url}/doi/api/handles/{doi}                      doi.org handle API
 *   {url}/crossref/works/{doi}                       Crossref works
 * Every record is an obviously synthetic fixture under Crossref's test prefix 10.5555 with
 * titles saying "Petri test data": nothing here is a real citation.
 */
import type { ServerResponse } from "node:http";
import {
  type FakeServer,
  type RecordedRequest,
  delay,
  sendJson,
  sendText,
  startFakeHttpServer,
} from "@petri/llm/testing";

export type FakeLiteratureScenario =
  /**
   * Search hits in this order: no DOI; a verifiable DOI; a DOI that does not resolve; a DOI
   * registered with another title; a malformed DOI; a second verifiable DOI (given as an
   * upper-case doi.org URL).
   */
  | "mixed"
  /** Eight verifiable hits (for limits and concurrency). */
  | "many_verified"
  /** The "mixed" hits, but Crossref answers 500 to everything. */
  | "crossref_error"
  /** Europe PMC answers 429 with a retry-after header. */
  | "europepmc_rate_limited"
  /** Europe PMC answers 500. */
  | "europepmc_error"
  /** Europe PMC never answers. */
  | "europepmc_hang";

export interface FakeLiteratureScenarioOptions {
  /** retry-after for "europepmc_rate_limited"; default "1" (seconds). */
  retryAfter?: string;
  /** Every doi.org and Crossref answer waits this long (so concurrent requests overlap). */
  verificationDelayMs?: number;
}

export interface FakeLiteratureServer extends FakeServer<
  FakeLiteratureScenario,
  FakeLiteratureScenarioOptions
> {
  europePmcBaseUrl: string;
  doiBaseUrl: string;
  crossrefBaseUrl: string;
}

export const FAKE_DOIS = {
  verified: "10.5555/petri-test.0001",
  unresolvable: "10.5555/petri-test.0002",
  titleMismatch: "10.5555/petri-test.0003",
  malformed: "petri-test-not-a-doi",
  secondVerified: "10.5555/petri-test.0004",
} as const;

interface FixtureRecord {
  /** As Europe PMC lists it (may be unnormalised); absent: a hit without a DOI. */
  doi?: string;
  title: string;
  /** Crossref's title[0]; absent: not registered at all (doi.org answers 100). */
  registeredTitle?: string;
  journalTitle?: string;
  pubYear?: string;
  pmid?: string;
}

const MIXED: FixtureRecord[] = [
  { title: "Synthetic fixture record without a DOI (Petri test data)" },
  {
    doi: FAKE_DOIS.verified,
    title: "Synthetic fixture study of test compound PT-0001 in a placeholder organism (Petri test data).",
    registeredTitle:
      "Synthetic fixture study of test compound <i>PT-0001</i> in a placeholder organism (Petri test data)",
    journalTitle: "Petri Test Fixtures",
    pubYear: "2001",
    pmid: "1",
  },
  {
    doi: FAKE_DOIS.unresolvable,
    title: "Synthetic fixture record whose DOI is not registered (Petri test data)",
  },
  {
    doi: FAKE_DOIS.titleMismatch,
    title: "Synthetic fixture record with a mismatched registration (Petri test data)",
    registeredTitle: "Unrelated placeholder title registered for another synthetic fixture",
  },
  { doi: FAKE_DOIS.malformed, title: "Synthetic fixture record with a malformed DOI (Petri test data)" },
  {
    doi: `https://doi.org/${FAKE_DOIS.secondVerified.toUpperCase()}`,
    title: "Second synthetic fixture study of test compound PT-0002 (Petri test data)",
    registeredTitle: "Second Synthetic Fixture Study of Test Compound PT-0002 (Petri Test Data)",
  },
];

const MANY_VERIFIED: FixtureRecord[] = Array.from({ length: 8 }, (_, index) => {
  const number = String(101 + index).padStart(4, "0");
  const title = `Synthetic fixture study number ${number} (Petri test data)`;
  return { doi: `10.5555/petri-test.${number}`, title, registeredTitle: title };
});

function recordsFor(scenario: FakeLiteratureScenario): FixtureRecord[] {
  return scenario === "many_verified" ? MANY_VERIFIED : MIXED;
}

function doiFromPath(path: string, prefix: string): string {
  return decodeURIComponent(path.slice(prefix.length)).toLowerCase();
}

function registered(records: FixtureRecord[], doi: string): FixtureRecord | undefined {
  return records.find(
    (record) =>
      record.registeredTitle !== undefined &&
      record.doi !== undefined &&
      record.doi.toLowerCase().replace(/^https:\/\/doi\.org\//, "") === doi,
  );
}

export async function startFakeLiteratureServer(
  initial: { scenario?: FakeLiteratureScenario; options?: FakeLiteratureScenarioOptions } = {},
): Promise<FakeLiteratureServer> {
  let scenario: FakeLiteratureScenario = initial.scenario ?? "mixed";
  let options: FakeLiteratureScenarioOptions = initial.options ?? {};

  const search = (request: RecordedRequest, response: ServerResponse) => {
    if (scenario === "europepmc_rate_limited")
      return sendJson(
        response,
        429,
        { error: "fake rate limit" },
        { "retry-after": options.retryAfter ?? "1" },
      );
    if (scenario === "europepmc_error") return sendText(response, 500, "fake Europe PMC failure");
    if (scenario === "europepmc_hang") return;
    const pageSize = Math.max(1, Math.min(1000, Number(request.query.pageSize ?? "25") || 25));
    const records = recordsFor(scenario).slice(0, pageSize);
    sendJson(response, 200, {
      version: "fake",
      hitCount: records.length,
      request: { queryString: request.query.query ?? "", resultType: "lite", pageSize },
      resultList: {
        result: records.map((record, index) => ({
          id: String(900_000 + index),
          source: "MED",
          title: record.title,
          ...(record.doi === undefined ? {} : { doi: record.doi }),
          ...(record.pmid === undefined ? {} : { pmid: record.pmid }),
          ...(record.journalTitle === undefined ? {} : { journalTitle: record.journalTitle }),
          ...(record.pubYear === undefined ? {} : { pubYear: record.pubYear }),
          authorString: "Fixture A, Placeholder B.",
        })),
      },
    });
  };

  const handle = async (request: RecordedRequest, response: ServerResponse) => {
    if (request.method !== "GET") return sendText(response, 405, "fake: GET only");
    if (request.path === "/europepmc/search") return search(request, response);
    const records = recordsFor(scenario);
    if (request.path.startsWith("/doi/api/handles/")) {
      if (options.verificationDelayMs) await delay(options.verificationDelayMs);
      const doi = doiFromPath(request.path, "/doi/api/handles/");
      if (!registered(records, doi)) return sendJson(response, 404, { responseCode: 100, handle: doi });
      return sendJson(response, 200, {
        responseCode: 1,
        handle: doi,
        values: [
          { index: 1, type: "URL", data: { format: "string", value: "https://example.invalid/fixture" } },
        ],
      });
    }
    if (request.path.startsWith("/crossref/works/")) {
      if (options.verificationDelayMs) await delay(options.verificationDelayMs);
      if (scenario === "crossref_error") return sendText(response, 500, "fake Crossref failure");
      const doi = doiFromPath(request.path, "/crossref/works/");
      const record = registered(records, doi);
      if (!record) return sendText(response, 404, "Resource not found.");
      return sendJson(response, 200, {
        status: "ok",
        "message-type": "work",
        message: { DOI: doi, title: [record.registeredTitle], publisher: "Petri test fixtures" },
      });
    }
    return sendText(response, 404, "fake: no such route");
  };

  const server = await startFakeHttpServer(handle);
  return {
    url: server.origin,
    europePmcBaseUrl: `${server.origin}/europepmc`,
    doiBaseUrl: `${server.origin}/doi`,
    crossrefBaseUrl: `${server.origin}/crossref`,
    requests: server.requests,
    setScenario(next, nextOptions = {}) {
      scenario = next;
      options = nextOptions;
      server.resetPeakConcurrency();
    },
    get peakConcurrency() {
      return server.peakConcurrency();
    },
    close: server.close,
  };
}
