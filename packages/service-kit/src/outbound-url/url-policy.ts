/**
 * The static half of the webhook URL policy: what can be decided from the URL text alone,
 * before any DNS lookup. The URL is parsed with the WHATWG parser (the one the HTTP client
 * uses), so `https://127.1/`, `https://0x7f000001/` and `https://2130706433/` are all seen
 * as 127.0.0.1, and `https://127.0.0.1#@evil.test` as host 127.0.0.1 (the fragment is never
 * sent). Resolved addresses are checked separately (resolution.ts), at registration and
 * again at connect time.
 */
import { type AddressAllowlist, type RefusedAddressCategory, checkAddress } from "./address-policy.js";
import { type IpAddress, parseIpAddress } from "./ip-address.js";

export const WEBHOOK_URL_MAX_LENGTH = 2048;

export type UrlRefusalReason =
  | "not_a_url"
  | "too_long"
  | "https_required"
  | "credentials_not_allowed"
  | "port_not_allowed"
  | "hostname_not_allowed"
  | "address_not_allowed"
  | "hostname_not_resolved";

export interface UrlRefusal {
  ok: false;
  reason: UrlRefusalReason;
  message: string;
  /** For logs only (never shown to a caller): which address rule refused it. */
  category?: RefusedAddressCategory;
}

export interface WebhookTarget {
  ok: true;
  /** The URL as it is called: normalised, without a fragment. */
  url: string;
  /** Lower-case hostname without a trailing dot (IPv6 without brackets). */
  hostname: string;
  port: number;
  /** "hostname:port": the unit of per-receiver concurrency. */
  hostKey: string;
  /** Set when the host is an IP literal (nothing to resolve). */
  literal?: IpAddress;
}

/** Names that point inside the network whatever DNS says about them. */
const INTERNAL_NAME_SUFFIXES = [".localhost", ".local", ".localdomain", ".internal", ".home.arpa", ".lan"];
const INTERNAL_NAMES = new Set(["localhost", "metadata", "metadata.google.internal", "instance-data"]);

function refuse(reason: UrlRefusalReason, message: string, category?: RefusedAddressCategory): UrlRefusal {
  return { ok: false, reason, message, ...(category ? { category } : {}) };
}

function isInternalName(hostname: string): boolean {
  if (INTERNAL_NAMES.has(hostname)) return true;
  if (INTERNAL_NAME_SUFFIXES.some((suffix) => hostname.endsWith(suffix))) return true;
  // A single label ("intranet") is completed by the resolver's search domains: internal.
  return !hostname.includes(".");
}

/** Checks a webhook URL's text; the hostname's addresses still need checking (unless a literal). */
export function checkWebhookUrl(text: string, allowlist: AddressAllowlist): WebhookTarget | UrlRefusal {
  if (text.length > WEBHOOK_URL_MAX_LENGTH)
    return refuse("too_long", `the URL is longer than ${WEBHOOK_URL_MAX_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return refuse("not_a_url", "not an absolute URL");
  }
  if (url.protocol !== "https:") return refuse("https_required", "webhook URLs must use https");
  if (url.username !== "" || url.password !== "")
    return refuse("credentials_not_allowed", "webhook URLs cannot carry a user name or password");
  const port = url.port === "" ? 443 : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    return refuse("port_not_allowed", "the port must be between 1 and 65535");

  const bracketed = url.hostname.startsWith("[");
  const hostname = (bracketed ? url.hostname.slice(1, -1) : url.hostname).toLowerCase().replace(/\.$/, "");
  if (hostname === "") return refuse("hostname_not_allowed", "the URL has no host");
  url.hash = "";
  const target = { ok: true as const, url: url.toString(), hostname, port, hostKey: `${hostname}:${port}` };

  const literal = parseIpAddress(hostname);
  if (literal) {
    const verdict = checkAddress(hostname, allowlist);
    if (!verdict.allowed)
      return refuse("address_not_allowed", "the URL's address is not publicly routable", verdict.category);
    return { ...target, literal };
  }
  if (bracketed) return refuse("not_a_url", "not an absolute URL");
  if (isInternalName(hostname))
    return refuse("hostname_not_allowed", "the URL's host name points inside a private network");
  return target;
}
