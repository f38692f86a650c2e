/**
 * Which addresses a webhook may connect to: only global unicast. Every block below is refused
 * (reliability test plan §1: smokescreen's policy and the OWASP SSRF cheat sheet), and an IPv6
 * address outside 2000::/3 is refused as reserved. IPv6 forms that carry an IPv4 address
 * (mapped, compatible, NAT64, 6to4, Teredo) are refused whatever the IPv4 address is: the
 * way they are routed depends on the network, so none of them is checked "through".
 *
 * A test-only allowlist (CIDR blocks) can let specific addresses through; production
 * configuration refuses to start with one (see allowlist-config.ts).
 */
import { type Cidr, type IpAddress, cidr, cidrContains, parseIpAddress } from "./ip-address.js";

export type RefusedAddressCategory =
  | "not_an_ip_address"
  | "unspecified"
  | "loopback"
  | "private"
  | "link_local"
  | "cloud_metadata"
  | "cgnat"
  | "multicast"
  | "reserved"
  | "ipv4_embedded";

const BLOCKS: ReadonlyArray<{ block: Cidr; category: RefusedAddressCategory }> = [
  // Cloud metadata first, so it is named as such rather than as link-local or private.
  ...["169.254.169.254/32", "169.254.170.2/32", "fd00:ec2::254/128", "100.100.100.200/32"].map((text) => ({
    block: cidr(text),
    category: "cloud_metadata" as const,
  })),
  { block: cidr("0.0.0.0/8"), category: "unspecified" },
  { block: cidr("10.0.0.0/8"), category: "private" },
  { block: cidr("100.64.0.0/10"), category: "cgnat" },
  { block: cidr("127.0.0.0/8"), category: "loopback" },
  { block: cidr("169.254.0.0/16"), category: "link_local" },
  { block: cidr("172.16.0.0/12"), category: "private" },
  { block: cidr("192.0.0.0/24"), category: "reserved" }, // IETF protocol assignments
  { block: cidr("192.0.2.0/24"), category: "reserved" }, // TEST-NET-1
  { block: cidr("192.88.99.0/24"), category: "reserved" }, // 6to4 relay anycast
  { block: cidr("192.168.0.0/16"), category: "private" },
  { block: cidr("198.18.0.0/15"), category: "reserved" }, // benchmarking
  { block: cidr("198.51.100.0/24"), category: "reserved" }, // TEST-NET-2
  { block: cidr("203.0.113.0/24"), category: "reserved" }, // TEST-NET-3
  { block: cidr("224.0.0.0/4"), category: "multicast" },
  { block: cidr("240.0.0.0/4"), category: "reserved" }, // includes 255.255.255.255
  { block: cidr("::/128"), category: "unspecified" },
  { block: cidr("::1/128"), category: "loopback" },
  { block: cidr("::ffff:0:0/96"), category: "ipv4_embedded" }, // IPv4-mapped
  { block: cidr("::/96"), category: "ipv4_embedded" }, // IPv4-compatible (deprecated)
  { block: cidr("64:ff9b::/96"), category: "ipv4_embedded" }, // NAT64
  { block: cidr("64:ff9b:1::/48"), category: "ipv4_embedded" }, // local-use NAT64
  { block: cidr("2001::/32"), category: "ipv4_embedded" }, // Teredo
  { block: cidr("2002::/16"), category: "ipv4_embedded" }, // 6to4
  { block: cidr("100::/64"), category: "reserved" }, // discard-only
  { block: cidr("2001::/23"), category: "reserved" }, // IETF protocol assignments
  { block: cidr("2001:db8::/32"), category: "reserved" }, // documentation
  { block: cidr("3fff::/20"), category: "reserved" }, // documentation
  { block: cidr("5f00::/16"), category: "reserved" }, // SRv6 SIDs
  { block: cidr("fc00::/7"), category: "private" }, // unique local
  { block: cidr("fe80::/10"), category: "link_local" },
  { block: cidr("fec0::/10"), category: "private" }, // site-local (deprecated)
  { block: cidr("ff00::/8"), category: "multicast" },
];

const IPV6_GLOBAL_UNICAST = cidr("2000::/3");

export type AddressVerdict =
  | { allowed: true; address: IpAddress; allowlisted: boolean }
  | { allowed: false; category: RefusedAddressCategory };

/** Addresses let through despite the policy: empty in production, loopback blocks in tests. */
export class AddressAllowlist {
  static readonly empty = new AddressAllowlist([]);

  private constructor(readonly blocks: readonly Cidr[]) {}

  /** Parses "127.0.0.1/32,::1" (commas or spaces); throws naming the first malformed entry. */
  static parse(text: string): AddressAllowlist {
    const entries = text
      .split(/[\s,]+/)
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    return new AddressAllowlist(entries.map((entry) => cidr(entry)));
  }

  static of(blocks: readonly string[]): AddressAllowlist {
    return new AddressAllowlist(blocks.map((block) => cidr(block)));
  }

  get size(): number {
    return this.blocks.length;
  }

  contains(address: IpAddress): boolean {
    return this.blocks.some((block) => cidrContains(block, address));
  }
}

/** The category an address is refused for, or undefined when it is global unicast. */
export function refusedCategory(address: IpAddress): RefusedAddressCategory | undefined {
  const match = BLOCKS.find(({ block }) => cidrContains(block, address));
  if (match) return match.category;
  if (address.family === 6 && !cidrContains(IPV6_GLOBAL_UNICAST, address)) return "reserved";
  return undefined;
}

/** Classifies one address in text form (as a resolver answers it). */
export function checkAddress(text: string, allowlist: AddressAllowlist): AddressVerdict {
  const address = parseIpAddress(text);
  if (!address) return { allowed: false, category: "not_an_ip_address" };
  if (allowlist.contains(address)) return { allowed: true, address, allowlisted: true };
  const category = refusedCategory(address);
  return category ? { allowed: false, category } : { allowed: true, address, allowlisted: false };
}
