/**
 * IP addresses as bytes, for the SSRF policy. The parser accepts only the canonical text
 * forms a resolver answers with and a WHATWG URL normalises to (dotted-decimal IPv4, RFC 4291
 * IPv6 with `::` and an optional trailing dotted quad). Anything else, including zone ids,
 * octal or hex octets and short forms, is "not an address" and therefore refused: the URL
 * parser has already turned `127.1`, `0x7f000001` or `2130706433` into `127.0.0.1`, so a
 * form this parser does not know never reaches a socket.
 */

export type IpFamily = 4 | 6;

export interface IpAddress {
  family: IpFamily;
  /** 4 bytes for IPv4, 16 for IPv6, network order. */
  bytes: Uint8Array;
}

const IPV4_OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function parseIpv4(text: string): Uint8Array | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const bytes = new Uint8Array(4);
  for (const [index, part] of parts.entries()) {
    if (!IPV4_OCTET.test(part)) return undefined;
    bytes[index] = Number(part);
  }
  return bytes;
}

const HEXTET = /^[0-9a-f]{1,4}$/;

function parseHextets(groups: string[]): number[] | undefined {
  const values: number[] = [];
  for (const group of groups) {
    if (!HEXTET.test(group)) return undefined;
    values.push(Number.parseInt(group, 16));
  }
  return values;
}

function parseIpv6(input: string): Uint8Array | undefined {
  let text = input.toLowerCase();
  // A trailing dotted quad stands for the last two hextets (::ffff:1.2.3.4).
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  const last = text.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = parseIpv4(last);
    if (!v4) return undefined;
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    // Drop the quad and its separator, but keep a "::" that precedes it.
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith("::")) text = text.slice(0, -1);
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head = halves[0] === "" ? [] : halves[0]!.split(":");
  const rest = halves.length === 2 && halves[1] !== "" ? halves[1]!.split(":") : [];
  const headValues = parseHextets(head);
  const restValues = parseHextets(rest);
  if (!headValues || !restValues) return undefined;
  const known = headValues.length + restValues.length + tail.length;
  let hextets: number[];
  if (halves.length === 2) {
    // "::" stands for at least one group of zeros.
    if (known > 7) return undefined;
    hextets = [...headValues, ...Array<number>(8 - known).fill(0), ...restValues, ...tail];
  } else {
    if (known !== 8) return undefined;
    hextets = [...headValues, ...tail];
  }
  const bytes = new Uint8Array(16);
  hextets.forEach((value, index) => {
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  });
  return bytes;
}

/** Parses an address in canonical text form (brackets around IPv6 allowed); undefined otherwise. */
export function parseIpAddress(text: string): IpAddress | undefined {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (bare.includes(":")) {
    const bytes = parseIpv6(bare);
    return bytes ? { family: 6, bytes } : undefined;
  }
  const bytes = parseIpv4(bare);
  return bytes ? { family: 4, bytes } : undefined;
}

/** The canonical text of an address (IPv6 without zero compression, for logs and tests). */
export function formatIpAddress(address: IpAddress): string {
  if (address.family === 4) return [...address.bytes].join(".");
  const hextets: string[] = [];
  for (let i = 0; i < 16; i += 2)
    hextets.push(((address.bytes[i]! << 8) | address.bytes[i + 1]!).toString(16));
  return hextets.join(":");
}

/** A CIDR block: the address family, the network bytes and the prefix length. */
export interface Cidr {
  family: IpFamily;
  bytes: Uint8Array;
  prefix: number;
}

/** Parses "10.0.0.0/8" or "fc00::/7" (a bare address is a /32 or /128); undefined when malformed. */
export function parseCidr(text: string): Cidr | undefined {
  const [addressText, prefixText, extra] = text.trim().split("/");
  if (extra !== undefined || addressText === undefined) return undefined;
  const address = parseIpAddress(addressText);
  if (!address) return undefined;
  const max = address.family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return undefined;
  return { family: address.family, bytes: address.bytes, prefix };
}

export function cidr(text: string): Cidr {
  const parsed = parseCidr(text);
  if (!parsed) throw new Error(`invalid CIDR ${text}`);
  return parsed;
}

/** True when the address lies in the block (same family only: no implicit v4/v6 mapping). */
export function cidrContains(block: Cidr, address: IpAddress): boolean {
  if (block.family !== address.family) return false;
  const fullBytes = Math.floor(block.prefix / 8);
  for (let i = 0; i < fullBytes; i += 1) if (block.bytes[i] !== address.bytes[i]) return false;
  const remainingBits = block.prefix % 8;
  if (remainingBits === 0) return true;
  const mask = (0xff << (8 - remainingBits)) & 0xff;
  return ((block.bytes[fullBytes] ?? 0) & mask) === ((address.bytes[fullBytes] ?? 0) & mask);
}
