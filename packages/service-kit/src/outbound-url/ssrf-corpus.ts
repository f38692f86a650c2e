/**
 * The SSRF corpus of the reliability test plan (§1, S1-S3): every URL here must be refused,
 * at registration (notifications' ValidateWebhookUrl and TestWebhook) and as a delivery
 * target. Each IPv4 form appears as a literal and as the answer for a DNS name (`answers`,
 * served by the test resolver). The controls at the end must be accepted. Test data only:
 * exported from `@petri/service-kit/testing`, never from the package's main entry.
 */
import type { ResolvedAddress } from "./resolution.js";

export interface CorpusEntry {
  url: string;
  /** What the test resolver answers for the URL's hostname (none: the name does not resolve). */
  answers?: string[];
  why: string;
}

const literals: CorpusEntry[] = [
  // Loopback and unspecified, in every spelling the URL parser accepts.
  { url: "https://127.0.0.1/", why: "loopback" },
  { url: "https://127.1/", why: "short loopback" },
  { url: "https://2130706433/", why: "dword loopback" },
  { url: "https://0x7f000001/", why: "hex loopback" },
  { url: "https://0177.0.0.1/", why: "octal loopback" },
  { url: "https://0x7f.1/", why: "mixed hex short loopback" },
  { url: "https://%31%32%37.0.0.1/", why: "percent-encoded loopback" },
  { url: "https://127.255.255.254/", why: "loopback block" },
  { url: "https://0.0.0.0/", why: "unspecified" },
  { url: "https://0/", why: "unspecified, one number" },
  // Private and link-local, cloud metadata.
  { url: "https://10.0.0.1/", why: "10/8" },
  { url: "https://10.255.255.255/", why: "10/8 top" },
  { url: "https://172.16.0.1/", why: "172.16/12" },
  { url: "https://172.31.255.254/", why: "172.16/12 top" },
  { url: "https://192.168.0.1/", why: "192.168/16" },
  { url: "https://192.168.255.255/", why: "192.168/16 top" },
  { url: "https://169.254.0.1/", why: "link-local" },
  { url: "https://169.254.169.254/latest/meta-data/", why: "cloud metadata" },
  { url: "https://169.254.170.2/v2/credentials", why: "ECS task metadata" },
  // Other special ranges.
  { url: "https://100.64.0.1/", why: "CGNAT" },
  { url: "https://100.100.100.200/", why: "CGNAT (Alibaba metadata)" },
  { url: "https://100.127.255.255/", why: "CGNAT top" },
  { url: "https://198.18.0.1/", why: "benchmarking" },
  { url: "https://198.19.255.255/", why: "benchmarking top" },
  { url: "https://192.0.0.8/", why: "IETF protocol assignments" },
  { url: "https://192.0.2.1/", why: "TEST-NET-1" },
  { url: "https://203.0.113.5/", why: "TEST-NET-3" },
  { url: "https://224.0.0.1/", why: "multicast" },
  { url: "https://239.255.255.250/", why: "multicast (SSDP)" },
  { url: "https://240.0.0.1/", why: "reserved" },
  { url: "https://255.255.255.255/", why: "broadcast" },
  // IPv6.
  { url: "https://[::1]/", why: "IPv6 loopback" },
  { url: "https://[::]/", why: "IPv6 unspecified" },
  { url: "https://[fe80::1]/", why: "IPv6 link-local" },
  { url: "https://[fc00::1]/", why: "unique local" },
  { url: "https://[fd00:ec2::254]/", why: "AWS IPv6 metadata" },
  { url: "https://[::ffff:127.0.0.1]/", why: "IPv4-mapped loopback (dotted)" },
  { url: "https://[::ffff:7f00:1]/", why: "IPv4-mapped loopback (hex)" },
  { url: "https://[::ffff:8.8.8.8]/", why: "IPv4-mapped, even of a public address" },
  { url: "https://[::127.0.0.1]/", why: "IPv4-compatible" },
  { url: "https://[64:ff9b::a9fe:a9fe]/", why: "NAT64 of the metadata address" },
  { url: "https://[2002:a9fe:a9fe::]/", why: "6to4 of the metadata address" },
  { url: "https://[2001::1]/", why: "Teredo" },
  { url: "https://[2001:db8::1]/", why: "documentation" },
  { url: "https://[fec0::1]/", why: "site-local" },
  { url: "https://[ff02::1]/", why: "IPv6 multicast" },
  { url: "https://[100::1]/", why: "discard-only" },
];

const names: CorpusEntry[] = [
  { url: "https://localhost/", answers: ["93.184.216.34"], why: "localhost, whatever DNS says" },
  { url: "https://x.localhost/", answers: ["93.184.216.34"], why: "*.localhost" },
  { url: "https://localhost./", answers: ["93.184.216.34"], why: "localhost with a trailing dot" },
  { url: "https://LOCALHOST/", answers: ["93.184.216.34"], why: "upper-case localhost" },
  {
    url: "https://metadata.google.internal/computeMetadata/v1/",
    answers: ["93.184.216.34"],
    why: "GCP metadata name",
  },
  { url: "https://metadata/", answers: ["93.184.216.34"], why: "bare metadata name" },
  { url: "https://intranet/", answers: ["93.184.216.34"], why: "single label (search domains)" },
  { url: "https://printer.local/", answers: ["93.184.216.34"], why: "mDNS .local" },
];

/** A public-looking name per refused answer: DNS says what the literal said. */
const answeredBy: Array<[string, string]> = [
  ["127.0.0.1", "loopback answer"],
  ["0.0.0.0", "unspecified answer"],
  ["10.1.2.3", "10/8 answer"],
  ["172.20.0.1", "172.16/12 answer"],
  ["192.168.1.1", "192.168/16 answer"],
  ["169.254.169.254", "metadata answer"],
  ["169.254.170.2", "ECS metadata answer"],
  ["100.100.100.200", "CGNAT answer"],
  ["198.18.0.1", "benchmarking answer"],
  ["192.0.0.8", "IETF block answer"],
  ["224.0.0.251", "multicast answer"],
  ["240.0.0.1", "reserved answer"],
  ["255.255.255.255", "broadcast answer"],
  ["::1", "IPv6 loopback answer"],
  ["fe80::1", "IPv6 link-local answer"],
  ["fd00:ec2::254", "AWS IPv6 metadata answer"],
  ["::ffff:127.0.0.1", "IPv4-mapped answer"],
  ["64:ff9b::a9fe:a9fe", "NAT64 answer"],
  ["2002:a9fe:a9fe::1", "6to4 answer"],
  ["2001::1", "Teredo answer"],
  ["0177.0.0.1", "an answer that is not a canonical address"],
];

const resolved: CorpusEntry[] = [
  ...answeredBy.map(([address, why], index) => ({
    url: `https://hook-${index}.attacker.example/`,
    answers: [address],
    why,
  })),
  {
    url: "https://mixed.attacker.example/",
    answers: ["93.184.216.34", "10.0.0.5"],
    why: "one public, one private answer",
  },
  {
    url: "https://mixed6.attacker.example/",
    answers: ["93.184.216.34", "::1"],
    why: "public IPv4, loopback IPv6",
  },
  { url: "https://nxdomain.attacker.example/", why: "does not resolve" },
  { url: "https://empty.attacker.example/", answers: [], why: "no addresses" },
];

const parserTricks: CorpusEntry[] = [
  { url: "https://evil@127.0.0.1/", why: "user info before a loopback host" },
  { url: "https://user:pass@hooks.example.com/", answers: ["93.184.216.34"], why: "credentials in the URL" },
  { url: "https://127.0.0.1#@evil.test", why: "fragment trick: the host is 127.0.0.1" },
  { url: "https://127.0.0.1\\@evil.test/", why: "backslash trick: the host is 127.0.0.1" },
  { url: "https://[127.0.0.1]/", why: "bracketed IPv4 (smokescreen bug)" },
  { url: "https://[::ffff:127.0.0.1]:8443/", why: "mapped loopback on another port" },
  { url: "https://127.0.0.1:443/", why: "explicit port" },
  { url: "https://hooks.example.com:0/", answers: ["93.184.216.34"], why: "port 0" },
  { url: "not a url", why: "not a URL" },
  { url: `https://hooks.example.com/${"a".repeat(2100)}`, answers: ["93.184.216.34"], why: "too long" },
];

const schemes: CorpusEntry[] = [
  { url: "http://hooks.example.com/", answers: ["93.184.216.34"], why: "plain http" },
  { url: "file:///etc/passwd", why: "file" },
  { url: "gopher://127.0.0.1:25/_HELO", why: "gopher" },
  { url: "ftp://hooks.example.com/", answers: ["93.184.216.34"], why: "ftp" },
  { url: "data:text/plain,hello", why: "data" },
  { url: "javascript:alert(1)", why: "javascript" },
  { url: "wss://hooks.example.com/", answers: ["93.184.216.34"], why: "websocket" },
];

export const SSRF_CORPUS: readonly CorpusEntry[] = [
  ...literals,
  ...names,
  ...resolved,
  ...parserTricks,
  ...schemes,
];

/** Must be accepted (a public address, as a name and as literals). */
export const PUBLIC_CONTROLS: readonly CorpusEntry[] = [
  { url: "https://hooks.example.com/petri", answers: ["93.184.216.34"], why: "public name" },
  {
    url: "https://hooks6.example.com/petri",
    answers: ["2606:2800:220:1:248:1893:25c8:1946"],
    why: "public IPv6 name",
  },
  { url: "https://93.184.216.34/petri", why: "public IPv4 literal" },
  { url: "https://[2606:2800:220:1:248:1893:25c8:1946]/petri", why: "public IPv6 literal" },
];

/** A resolver answering from the corpus (family from the address text; no entry: NXDOMAIN). */
export function corpusResolver(entries: readonly CorpusEntry[]) {
  const table = new Map<string, string[]>();
  for (const entry of entries) {
    if (!entry.answers) continue;
    try {
      const host = new URL(entry.url).hostname.toLowerCase().replace(/\.$/, "");
      table.set(host.replace(/^\[|\]$/g, ""), entry.answers);
    } catch {
      // Not a URL: nothing to resolve.
    }
  }
  return async (hostname: string): Promise<ResolvedAddress[]> => {
    const answers = table.get(hostname);
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}
