import { createServer } from "node:net";
import { afterAll, describe, expect, it, vi } from "vitest";
import { EngineProviderError } from "../../domain/generation.js";
import { FAKE_DOIS, startFakeLiteratureServer } from "@petri/fixtures/engine";
import { rejectionOf, useFakeServer } from "@petri/fixtures/fake-server-tests";
import { EuropePmcLiterature, type EuropePmcLiteratureOptions } from "./europe-pmc-literature.js";

const CONTACT = "engine-tests@example.org";
const CHECKED_AT = new Date("2026-01-02T03:04:05.000Z");
const TERMS = "PT-0001 placeholder organism";

const fake = useFakeServer(startFakeLiteratureServer, "mixed");
const providers: EuropePmcLiterature[] = [];
// Registered after the fake server's hooks, so it runs before the server closes.
afterAll(async () => {
  await Promise.all(providers.map((provider) => provider.close()));
});

function literature(overrides: Partial<EuropePmcLiteratureOptions> = {}) {
  const provider = new EuropePmcLiterature({
    europePmcBaseUrl: fake.server.europePmcBaseUrl,
    doiBaseUrl: fake.server.doiBaseUrl,
    crossrefBaseUrl: fake.server.crossrefBaseUrl,
    contactEmail: CONTACT,
    // Generous for answers on a loaded machine; the hang test shortens it.
    timeoutMs: 2000,
    maxRetries: 2,
    sleep: fake.sleep,
    now: () => CHECKED_AT,
    ...overrides,
  });
  providers.push(provider);
  return provider;
}

const options = (limit = 5, signal = new AbortController().signal) => ({ limit, signal });
const requestsTo = (prefix: string) =>
  fake.server.requests.filter((request) => request.path.startsWith(prefix));

const providerError = (promise: Promise<unknown>) => rejectionOf(promise, EngineProviderError);

describe("EuropePmcLiterature", () => {
  it("returns only the hits whose DOI resolves and whose registered title matches, in rank order", async () => {
    const { sources, rejected } = await literature().findSources(TERMS, options());
    expect(sources.map((source) => source.doi)).toEqual([FAKE_DOIS.verified, FAKE_DOIS.secondVerified]);
    expect(sources[0]).toEqual({
      title: "Synthetic fixture study of test compound PT-0001 in a placeholder organism (Petri test data).",
      doi: FAKE_DOIS.verified,
      relevance: `Europe PMC search result 2 for "${TERMS}"`,
      provider: "europepmc",
      retrieved_by: TERMS,
      year: 2001,
      journal: "Petri Test Fixtures",
      pmid: "1",
      verification: {
        doi_resolves: true,
        title_similarity: 1,
        registered_title:
          "Synthetic fixture study of test compound PT-0001 in a placeholder organism (Petri test data)",
        checked_at: CHECKED_AT.toISOString(),
      },
    });
    expect(sources[1]!.relevance).toBe(`Europe PMC search result 6 for "${TERMS}"`);
    expect(rejected).toEqual([
      {
        doi: FAKE_DOIS.unresolvable,
        title: "Synthetic fixture record whose DOI is not registered (Petri test data)",
        reason: "doi_not_found",
      },
      {
        doi: FAKE_DOIS.titleMismatch,
        title: "Synthetic fixture record with a mismatched registration (Petri test data)",
        reason: "title_mismatch",
      },
      {
        doi: FAKE_DOIS.malformed,
        title: "Synthetic fixture record with a malformed DOI (Petri test data)",
        reason: "invalid_doi",
      },
    ]);
  });

  it("never lists an unverified DOI as a source", async () => {
    const { sources } = await literature().findSources(TERMS, options(10));
    const dois = sources.map((source) => source.doi);
    for (const unverified of [FAKE_DOIS.unresolvable, FAKE_DOIS.titleMismatch, FAKE_DOIS.malformed])
      expect(dois).not.toContain(unverified);
    for (const source of sources) expect(source.verification.title_similarity).toBeGreaterThanOrEqual(0.9);
  });

  it("searches Europe PMC as documented and names its contact in every request", async () => {
    await literature().findSources(`  ${TERMS}  `, options(2));
    const [search] = requestsTo("/europepmc/search");
    expect(search!.query).toEqual({ query: TERMS, format: "json", resultType: "lite", pageSize: "6" });
    for (const request of fake.server.requests)
      expect(request.headers["user-agent"]).toContain(`mailto:${CONTACT}`);
  });

  it("checks existence before Crossref, and sends neither a malformed nor an unresolvable DOI further", async () => {
    await literature().findSources(TERMS, options());
    const handles = requestsTo("/doi/api/handles/").map((request) => request.path);
    const works = requestsTo("/crossref/works/").map((request) => request.path);
    expect(handles.sort()).toEqual(
      [FAKE_DOIS.verified, FAKE_DOIS.unresolvable, FAKE_DOIS.titleMismatch, FAKE_DOIS.secondVerified]
        .map((doi) => `/doi/api/handles/${doi}`)
        .sort(),
    );
    expect(works.sort()).toEqual(
      [FAKE_DOIS.verified, FAKE_DOIS.titleMismatch, FAKE_DOIS.secondVerified]
        .map((doi) => `/crossref/works/${doi}`)
        .sort(),
    );
  });

  it("rejects every DOI as crossref_unavailable when Crossref fails, and returns no source", async () => {
    fake.server.setScenario("crossref_error");
    const { sources, rejected } = await literature().findSources(TERMS, options());
    expect(sources).toEqual([]);
    expect(rejected.filter((item) => item.reason === "crossref_unavailable").map((item) => item.doi)).toEqual(
      [FAKE_DOIS.verified, FAKE_DOIS.titleMismatch, FAKE_DOIS.secondVerified],
    );
  });

  it("retries a Europe PMC 429 as configured, waiting as retry-after asks, then reports literature_rate_limited", async () => {
    fake.server.setScenario("europepmc_rate_limited", { retryAfter: "1" });
    const error = await providerError(literature().findSources(TERMS, options()));
    expect(error.code).toBe("literature_rate_limited");
    expect(requestsTo("/europepmc/search")).toHaveLength(3);
    expect(fake.sleeps).toEqual([1000, 1000]);
    expect(requestsTo("/doi/")).toHaveLength(0);
  });

  it("gives up at once when Europe PMC asks to wait longer than the cap", async () => {
    fake.server.setScenario("europepmc_rate_limited", { retryAfter: "600" });
    const error = await providerError(literature({ maxRetryDelayMs: 2000 }).findSources(TERMS, options()));
    expect(error.code).toBe("literature_rate_limited");
    expect(requestsTo("/europepmc/search")).toHaveLength(1);
  });

  it("reports a Europe PMC failure as literature_unavailable without its body", async () => {
    fake.server.setScenario("europepmc_error");
    const error = await providerError(literature().findSources(TERMS, options()));
    expect(error.code).toBe("literature_unavailable");
    expect(error.message).toContain("HTTP 500");
    expect(error.message).not.toContain("fake Europe PMC failure");
  });

  it("reports a Europe PMC that hangs past the timeout as timeout", async () => {
    fake.server.setScenario("europepmc_hang");
    const error = await providerError(literature({ timeoutMs: 200 }).findSources(TERMS, options()));
    expect(error.code).toBe("timeout");
    expect(requestsTo("/europepmc/search")).toHaveLength(1);
  });

  it("reports an unreachable Europe PMC as literature_unavailable after the retries", async () => {
    const port = await closedPort();
    const unreachable = literature({ europePmcBaseUrl: `http://127.0.0.1:${port}/europepmc` });
    const error = await providerError(unreachable.findSources(TERMS, options()));
    expect(error.code).toBe("literature_unavailable");
    expect(fake.sleeps).toHaveLength(2);
  });

  it("returns the first `limit` verified hits and stops starting verifications once it has them", async () => {
    fake.server.setScenario("many_verified");
    const { sources } = await literature().findSources(TERMS, options(2));
    expect(sources.map((source) => source.doi)).toEqual([
      "10.5555/petri-test.0101",
      "10.5555/petri-test.0102",
    ]);
    // Three start together; at most one more starts before the second verification completes.
    expect(requestsTo("/doi/api/handles/").length).toBeLessThanOrEqual(4);
  });

  it("verifies at most `concurrency` DOIs at the same time", async () => {
    fake.server.setScenario("many_verified", { verificationDelayMs: 15 });
    const { sources } = await literature({ concurrency: 3 }).findSources(TERMS, options(8));
    expect(sources).toHaveLength(8);
    expect(fake.server.peakConcurrency).toBeLessThanOrEqual(3);
  });

  it("asks nothing for an empty query or a zero limit", async () => {
    expect(await literature().findSources("   ", options())).toEqual({ sources: [], rejected: [] });
    expect(await literature().findSources(TERMS, options(0))).toEqual({ sources: [], rejected: [] });
    expect(fake.server.requests).toHaveLength(0);
  });

  it("refuses to start without a contact e-mail", () => {
    expect(() => literature({ contactEmail: "nobody" })).toThrow(/contact e-mail/);
    expect(() => literature({ contactEmail: "a@b.org\r\nX-Injected: 1" })).toThrow(/contact e-mail/);
  });

  describe("abort", () => {
    it("sends nothing when the signal is already aborted", async () => {
      const reason = new Error("run cancelled");
      await expect(literature().findSources(TERMS, options(5, AbortSignal.abort(reason)))).rejects.toBe(
        reason,
      );
      expect(fake.server.requests).toHaveLength(0);
    });

    it("stops the search in flight with the caller's reason", async () => {
      fake.server.setScenario("europepmc_hang");
      const controller = new AbortController();
      const reason = new Error("run cancelled");
      const finding = literature({ timeoutMs: 10_000 }).findSources(TERMS, options(5, controller.signal));
      await vi.waitFor(() => expect(fake.server.requests).toHaveLength(1));
      controller.abort(reason);
      await expect(finding).rejects.toBe(reason);
    });

    it("stops the verifications in flight with the caller's reason", async () => {
      fake.server.setScenario("many_verified", { verificationDelayMs: 5_000 });
      const controller = new AbortController();
      const reason = new Error("run cancelled");
      const finding = literature({ timeoutMs: 10_000 }).findSources(TERMS, options(5, controller.signal));
      await vi.waitFor(() => expect(requestsTo("/doi/").length).toBeGreaterThan(0));
      controller.abort(reason);
      await expect(finding).rejects.toBe(reason);
      expect(requestsTo("/crossref/")).toHaveLength(0);
    });
  });
});

/** A port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
