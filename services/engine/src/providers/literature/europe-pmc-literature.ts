/**
 * A LiteratureProvider over Europe PMC search, with every candidate DOI checked before it
 * may become a source (reference notes section 2.3):
 *   1. the DOI is normalised and must be well formed;
 *   2. it must exist at the DOI resolver (doi.org handle API: responseCode 1);
 *   3. Crossref's registered title for it must match the title the search returned
 *      (token-set similarity >= TITLE_MATCH_THRESHOLD).
 * Anything that fails, or cannot be checked right now, is rejected with a reason and never
 * returned as a source: a citation the engine could not verify is not shown.
 *
 * A failed search is an EngineProviderError; a failed verification only rejects that DOI.
 * Verifications run a few at a time, in search-rank order, and stop being started once
 * `limit` sources are verified, so the result is the first `limit` verified hits by rank.
 */
import type { Sleep } from "@petri/llm";
import { z } from "zod";
import {
  EngineProviderError,
  type LiteratureProvider,
  type VerifiedSource,
} from "../../domain/generation.js";
import { doiUrlPath, isWellFormedDoi, normaliseDoi } from "./doi.js";
import { type JsonResult, LiteratureHttp } from "./literature-http.js";
import { TITLE_MATCH_THRESHOLD, plainTitle, titleSimilarity } from "./title-similarity.js";

export const MAX_SOURCES_PER_SEARCH = 10;
/** Candidates fetched per wanted source: many hits have no DOI or fail verification. */
const CANDIDATES_PER_SOURCE = 3;
const MAX_PAGE_SIZE = 25;
const SEARCH_TERMS_MAX_CHARS = 500;
const TITLE_MAX_CHARS = 500;
const JOURNAL_MAX_CHARS = 300;

const SEARCH_MAX_BYTES = 2 * 1024 * 1024;
const HANDLE_MAX_BYTES = 64 * 1024;
/** Crossref work records carry their reference lists, which run to megabytes for reviews. */
const CROSSREF_MAX_BYTES = 4 * 1024 * 1024;

const DEFAULT_CONCURRENCY = 3;
const DEFAULT_MAX_RETRIES = 2;

const CONTACT_EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

export type RejectionReason =
  | "invalid_doi"
  | "doi_not_found"
  | "doi_resolver_unavailable"
  | "not_in_crossref"
  | "crossref_unavailable"
  | "title_mismatch";

export interface EuropePmcLiteratureOptions {
  /** e.g. https://www.ebi.ac.uk/europepmc/webservices/rest */
  europePmcBaseUrl: string;
  /** e.g. https://doi.org */
  doiBaseUrl: string;
  /** e.g. https://api.crossref.org */
  crossrefBaseUrl: string;
  /** Sent in the User-Agent (mailto:), as Crossref's and Europe PMC's etiquette asks. */
  contactEmail: string;
  /** Per request. */
  timeoutMs: number;
  /** Retries of a 429, 502/503/504 or a connection failure, per request. */
  maxRetries?: number;
  maxRetryDelayMs?: number;
  /** DOIs verified at the same time. */
  concurrency?: number;
  sleep?: Sleep;
  now?: () => Date;
}

const searchResultSchema = z.object({
  title: z.string().optional(),
  doi: z.string().optional(),
  pmid: z.string().optional(),
  journalTitle: z.string().optional(),
  pubYear: z.string().optional(),
});
type SearchResult = z.output<typeof searchResultSchema>;

const searchResponseSchema = z.object({
  resultList: z.object({ result: z.array(z.unknown()) }).optional(),
});

const handleResponseSchema = z.object({ responseCode: z.number() });
const crossrefWorkSchema = z.object({ message: z.object({ title: z.array(z.unknown()).optional() }) });

interface Candidate {
  /** 1-based position in Europe PMC's result list. */
  rank: number;
  title: string;
  doi: string;
  result: SearchResult;
}

type Verification =
  | { verified: true; source: VerifiedSource }
  | { verified: false; rejection: { doi: string; title: string; reason: RejectionReason } };

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

function truncate(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1)}…`;
}

function searchFailure(result: Exclude<JsonResult, { ok: true }>, timeoutMs: number): EngineProviderError {
  if (result.status === 429)
    return new EngineProviderError(
      "literature_rate_limited",
      "Europe PMC is rate limiting the engine (HTTP 429)",
    );
  switch (result.problem) {
    case "timeout":
      return new EngineProviderError("timeout", `Europe PMC did not answer within ${timeoutMs} ms`);
    case "http_status":
      return new EngineProviderError(
        "literature_unavailable",
        `Europe PMC search failed (HTTP ${result.status})`,
      );
    case "unreachable":
      return new EngineProviderError("literature_unavailable", "could not reach Europe PMC");
    case "too_large":
      return new EngineProviderError(
        "literature_unavailable",
        "Europe PMC sent a response larger than accepted",
      );
    case "not_json":
      return new EngineProviderError("literature_unavailable", "Europe PMC sent a response that is not JSON");
  }
}

export class EuropePmcLiterature implements LiteratureProvider {
  readonly id = "europepmc";
  private readonly http: LiteratureHttp;
  private readonly concurrency: number;
  private readonly now: () => Date;

  constructor(private readonly options: EuropePmcLiteratureOptions) {
    if (!CONTACT_EMAIL.test(options.contactEmail))
      throw new Error("EuropePmcLiterature needs a contact e-mail address (e.g. lab-admin@example.org)");
    this.concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
    this.now = options.now ?? (() => new Date());
    this.http = new LiteratureHttp({
      timeoutMs: options.timeoutMs,
      userAgent: `Petri-engine/0.1 (mailto:${options.contactEmail})`,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      connectionsPerHost: this.concurrency,
      ...(options.maxRetryDelayMs === undefined ? {} : { maxRetryDelayMs: options.maxRetryDelayMs }),
      ...(options.sleep ? { sleep: options.sleep } : {}),
    });
  }

  async findSources(
    searchQuery: string,
    options: { limit: number; signal: AbortSignal },
  ): Promise<{ sources: VerifiedSource[]; rejected: { doi: string; title: string; reason: string }[] }> {
    const terms = searchQuery.trim().replace(/\s+/g, " ").slice(0, SEARCH_TERMS_MAX_CHARS);
    const limit = Math.min(Math.floor(options.limit), MAX_SOURCES_PER_SEARCH);
    if (terms === "" || !(limit >= 1)) return { sources: [], rejected: [] };

    const candidates = await this.search(terms, limit, options.signal);
    const outcomes = await this.verifyInRankOrder(candidates, terms, limit, options.signal);
    const sources: VerifiedSource[] = [];
    const rejected: { doi: string; title: string; reason: string }[] = [];
    for (const outcome of outcomes) {
      if (outcome === undefined) continue;
      if (outcome.verified) {
        if (sources.length < limit) sources.push(outcome.source);
      } else rejected.push(outcome.rejection);
    }
    return { sources, rejected };
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  private async search(terms: string, limit: number, signal: AbortSignal): Promise<Candidate[]> {
    const url = new URL(`${withoutTrailingSlash(this.options.europePmcBaseUrl)}/search`);
    url.searchParams.set("query", terms);
    url.searchParams.set("format", "json");
    url.searchParams.set("resultType", "lite");
    url.searchParams.set("pageSize", String(Math.min(MAX_PAGE_SIZE, limit * CANDIDATES_PER_SOURCE)));
    const response = await this.http.getJson(url, SEARCH_MAX_BYTES, signal);
    if (!response.ok) throw searchFailure(response, this.options.timeoutMs);
    const parsed = searchResponseSchema.safeParse(response.json);
    if (!parsed.success)
      throw new EngineProviderError(
        "literature_unavailable",
        "Europe PMC sent a search response of an unknown shape",
      );

    const candidates: Candidate[] = [];
    const seen = new Set<string>();
    (parsed.data.resultList?.result ?? []).forEach((raw, index) => {
      const result = searchResultSchema.safeParse(raw);
      if (!result.success) return;
      const title = plainTitle(result.data.title ?? "");
      const doi = result.data.doi?.trim();
      if (!title || !doi) return;
      const key = normaliseDoi(doi);
      if (seen.has(key)) return;
      seen.add(key);
      candidates.push({ rank: index + 1, title, doi, result: result.data });
    });
    return candidates;
  }

  private async verifyInRankOrder(
    candidates: Candidate[],
    terms: string,
    limit: number,
    signal: AbortSignal,
  ): Promise<(Verification | undefined)[]> {
    const outcomes: (Verification | undefined)[] = new Array(candidates.length);
    let next = 0;
    let verified = 0;
    const worker = async () => {
      while (next < candidates.length && verified < limit) {
        const index = next++;
        const outcome = await this.verify(candidates[index]!, terms, signal);
        outcomes[index] = outcome;
        if (outcome.verified) verified++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, candidates.length) }, worker));
    return outcomes;
  }

  private async verify(candidate: Candidate, terms: string, signal: AbortSignal): Promise<Verification> {
    const doi = normaliseDoi(candidate.doi);
    const reject = (reason: RejectionReason): Verification => ({
      verified: false,
      rejection: { doi: truncate(doi, 300), title: truncate(candidate.title, TITLE_MAX_CHARS), reason },
    });
    if (!isWellFormedDoi(doi)) return reject("invalid_doi");

    const handle = await this.http.getJson(
      new URL(`${withoutTrailingSlash(this.options.doiBaseUrl)}/api/handles/${doiUrlPath(doi)}`),
      HANDLE_MAX_BYTES,
      signal,
    );
    const responseCode = handle.ok
      ? handleResponseSchema.safeParse(handle.json).data?.responseCode
      : undefined;
    if ((!handle.ok && handle.status === 404) || responseCode === 100) return reject("doi_not_found");
    if (responseCode !== 1) return reject("doi_resolver_unavailable");

    const work = await this.http.getJson(
      new URL(`${withoutTrailingSlash(this.options.crossrefBaseUrl)}/works/${doiUrlPath(doi)}`),
      CROSSREF_MAX_BYTES,
      signal,
    );
    if (!work.ok) return reject(work.status === 404 ? "not_in_crossref" : "crossref_unavailable");
    const registered = crossrefWorkSchema.safeParse(work.json).data?.message.title?.[0];
    if (typeof registered !== "string") return reject("crossref_unavailable");

    const similarity = titleSimilarity(candidate.title, registered);
    if (similarity < TITLE_MATCH_THRESHOLD) return reject("title_mismatch");
    return { verified: true, source: this.toSource(candidate, doi, terms, similarity, registered) };
  }

  private toSource(
    candidate: Candidate,
    doi: string,
    terms: string,
    similarity: number,
    registeredTitle: string,
  ): VerifiedSource {
    const { pubYear, journalTitle, pmid } = candidate.result;
    const year = pubYear && /^\d{4}$/.test(pubYear.trim()) ? Number(pubYear.trim()) : undefined;
    const journal = journalTitle ? plainTitle(journalTitle) : "";
    return {
      title: truncate(candidate.title, TITLE_MAX_CHARS),
      doi,
      relevance: `Europe PMC search result ${candidate.rank} for "${truncate(terms, 200)}"`,
      provider: "europepmc",
      retrieved_by: terms,
      ...(year === undefined ? {} : { year }),
      ...(journal ? { journal: truncate(journal, JOURNAL_MAX_CHARS) } : {}),
      ...(pmid && /^\d{1,12}$/.test(pmid.trim()) ? { pmid: pmid.trim() } : {}),
      verification: {
        doi_resolves: true,
        title_similarity: Math.round(similarity * 1000) / 1000,
        registered_title: truncate(plainTitle(registeredTitle), TITLE_MAX_CHARS),
        checked_at: this.now().toISOString(),
      },
    };
  }
}
