/**
 * The dynamic half of the webhook URL policy: a hostname's resolved addresses. Every address
 * must be allowed (a name with one public and one private answer is refused: which one a
 * connection would use is not ours to choose), and the connection is then made to the
 * address checked here, never to a second lookup's answer (DNS rebinding).
 */
import { type AddressAllowlist, type RefusedAddressCategory, checkAddress } from "./address-policy.js";
import type { IpAddress } from "./ip-address.js";

/** One answer of a resolver, as node:dns lookup({ all: true }) gives it. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a hostname to every A and AAAA answer; rejects when the name does not resolve. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export type ResolutionVerdict =
  | { allowed: true; pinned: ResolvedAddress; address: IpAddress }
  | { allowed: false; category: RefusedAddressCategory | "no_addresses" };

export function checkResolution(
  answers: readonly ResolvedAddress[],
  allowlist: AddressAllowlist,
): ResolutionVerdict {
  if (answers.length === 0) return { allowed: false, category: "no_addresses" };
  let first: { pinned: ResolvedAddress; address: IpAddress } | undefined;
  for (const answer of answers) {
    const verdict = checkAddress(answer.address, allowlist);
    if (!verdict.allowed) return { allowed: false, category: verdict.category };
    // The family must be what the answer claims, or the socket would be opened another way.
    if (verdict.address.family !== answer.family) return { allowed: false, category: "not_an_ip_address" };
    first ??= { pinned: answer, address: verdict.address };
  }
  return { allowed: true, ...first! };
}
