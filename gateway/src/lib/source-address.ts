/**
 * The source address of a request: the subject of the ANONYMOUS and AUTH_FAILURES quotas
 * (and half of the CREDENTIAL_FAILURES one).
 *
 * It is the TCP peer's address (the socket @hono/node-server hands us). X-Forwarded-For is
 * read only when PETRI_TRUST_PROXY is set, and then only its LAST entry: the one the trusted
 * proxy in front of us appended. Entries to its left were written by the client and can say
 * anything. (Exactly one trusted hop; a chain of proxies needs a proper allowlist.)
 *
 * IPv4-mapped IPv6 addresses are reduced to IPv4, and IPv6 addresses to their /64 network:
 * one subscriber usually gets a whole /64, so per-address limits on full IPv6 addresses
 * would be trivial to sidestep.
 */
import { isIP } from "node:net";
import { z } from "zod";

export const UNKNOWN_ADDRESS = "unknown";

/** PETRI_TRUST_PROXY in a config schema (the cluster gateway's and standalone's): default false. */
export const trustProxySchema = z
  .enum(["true", "false", "1", "0"], { error: "must be true or false" })
  .default("false")
  .transform((value) => value === "true" || value === "1");

/** Expands an IPv6 address to its 8 groups (numbers), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  const [head = "", tail] = address.split("::");
  if (address.split("::").length > 2) return undefined;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  // An embedded IPv4 tail ("::ffff:1.2.3.4") counts as two groups.
  const expandV4 = (parts: string[]) => {
    const last = parts.at(-1);
    if (last && last.includes(".")) {
      const octets = last.split(".").map(Number);
      return [
        ...parts.slice(0, -1),
        (((octets[0] ?? 0) << 8) | (octets[1] ?? 0)).toString(16),
        (((octets[2] ?? 0) << 8) | (octets[3] ?? 0)).toString(16),
      ];
    }
    return parts;
  };
  const l = expandV4(left);
  const r = expandV4(right);
  const missing = 8 - l.length - r.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return undefined;
  return [...l, ...Array<string>(Math.max(missing, 0)).fill("0"), ...r].map((g) => parseInt(g, 16));
}

/** The rate-limit subject for a peer address. */
export function normaliseAddress(raw: string | undefined): string {
  if (!raw) return UNKNOWN_ADDRESS;
  const address = raw
    .trim()
    .replace(/^\[|\]$/g, "")
    .split("%")[0]!;
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return UNKNOWN_ADDRESS;
  const groups = ipv6Groups(address);
  if (!groups) return UNKNOWN_ADDRESS;
  const isMappedV4 = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (isMappedV4) {
    const [a = 0, b = 0] = groups.slice(6);
    return `${a >> 8}.${a & 0xff}.${b >> 8}.${b & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/**
 * The subject for a request.
 * @param peer the socket's remote address (undefined when there is no socket, as in app.request())
 * @param forwardedFor the X-Forwarded-For header
 * @param trustProxy PETRI_TRUST_PROXY
 */
export function sourceAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trustProxy: boolean,
): string {
  if (trustProxy && forwardedFor) {
    const last = forwardedFor.split(",").at(-1)?.trim();
    const normalised = normaliseAddress(last);
    if (normalised !== UNKNOWN_ADDRESS) return normalised;
  }
  return normaliseAddress(peer);
}
