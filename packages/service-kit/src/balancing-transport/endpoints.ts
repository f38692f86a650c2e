/**
 * Where a service's calls may go: the URL setting (one URL or a comma-separated list) and
 * the endpoints it currently stands for. A URL naming a host (a Kubernetes headless Service,
 * whose DNS name has one address per ready pod) stands for every address the host resolves
 * to; a URL with an IP address stands for itself.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { z } from "zod";

/** Every address of a host name (dns.promises.lookup with all: true). */
export type LookupAll = (hostname: string) => Promise<ReadonlyArray<{ address: string }>>;

export const systemLookupAll: LookupAll = (hostname) => dnsLookup(hostname, { all: true });

const httpUrl = z.url({
  protocol: /^https?$/,
  error: (issue) => `entry "${String(issue.input)}" is not an http:// or https:// URL`,
});

/**
 * A service URL setting (PETRI_<SVC>_URL): one http(s) URL or a comma-separated list of them,
 * e.g. "http://experiments-headless:8080" or "http://10.0.0.5:8080,http://10.0.0.6:8080".
 */
export const serviceUrlsSchema = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ""),
  )
  .pipe(z.array(httpUrl).min(1, "must name at least one http(s) URL"));

/**
 * Whether the endpoints behind `url` come from resolving its host. Not for IP literals
 * (nothing to resolve) nor https: a certificate names the host, and connecting to a bare
 * address would fail its check, so an https host is one endpoint the OS resolves.
 */
function resolvable(url: URL): boolean {
  return url.protocol === "http:" && isIP(url.hostname.replace(/^\[|\]$/g, "")) === 0;
}

/** `url` as a base URL without a trailing slash, e.g. "http://10.0.0.5:8080". */
function baseUrlOf(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * The endpoints (base URLs) `url` stands for right now: itself, or one per address of its
 * host, same scheme, port and path. Throws if the lookup fails.
 */
export async function endpointsOf(url: string, lookup: LookupAll): Promise<string[]> {
  const parsed = new URL(url);
  if (!resolvable(parsed)) return [baseUrlOf(parsed)];
  const addresses = await lookup(parsed.hostname);
  const endpoints = addresses.map(({ address }) => {
    const endpoint = new URL(parsed.href);
    endpoint.hostname = isIP(address) === 6 ? `[${address}]` : address;
    return baseUrlOf(endpoint);
  });
  return [...new Set(endpoints)];
}
