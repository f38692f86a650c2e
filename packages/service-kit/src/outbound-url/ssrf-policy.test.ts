import { describe, expect, it } from "vitest";
import { PUBLIC_CONTROLS, SSRF_CORPUS, corpusResolver } from "@petri/fixtures/service-kit";
import { AddressAllowlist, checkAddress, refusedCategory } from "./address-policy.js";
import { parseIpAddress } from "./ip-address.js";
import { checkResolution } from "./resolution.js";
import { checkWebhookUrl } from "./url-policy.js";

const resolve = corpusResolver([...SSRF_CORPUS, ...PUBLIC_CONTROLS]);

/** The registration-time decision: the static rules, then every resolved address. */
async function allowed(url: string, allowlist = AddressAllowlist.empty): Promise<boolean> {
  const target = checkWebhookUrl(url, allowlist);
  if (!target.ok) return false;
  if (target.literal) return true;
  try {
    return checkResolution(await resolve(target.hostname), allowlist).allowed;
  } catch {
    return false;
  }
}

describe("the SSRF corpus (reliability test plan S1)", () => {
  it("holds at least 80 URLs", () => {
    expect(SSRF_CORPUS.length).toBeGreaterThanOrEqual(80);
  });

  it.each(SSRF_CORPUS.map((entry) => [entry.why, entry.url] as const))(
    "refuses %s (%s)",
    async (_why, url) => {
      expect(await allowed(url)).toBe(false);
    },
  );

  it.each(PUBLIC_CONTROLS.map((entry) => [entry.why, entry.url] as const))(
    "accepts %s (%s)",
    async (_why, url) => {
      expect(await allowed(url)).toBe(true);
    },
  );
});

describe("checkWebhookUrl", () => {
  it("normalises the URL it will call and keys receivers by host and port", () => {
    const target = checkWebhookUrl("https://Hooks.Example.com./petri?x=1#frag", AddressAllowlist.empty);
    expect(target).toMatchObject({
      ok: true,
      url: "https://hooks.example.com./petri?x=1",
      hostname: "hooks.example.com",
      port: 443,
      hostKey: "hooks.example.com:443",
    });
    expect(checkWebhookUrl("https://hooks.example.com:8443/", AddressAllowlist.empty)).toMatchObject({
      hostKey: "hooks.example.com:8443",
    });
  });

  it("names the rule that refused a URL", () => {
    const reason = (url: string) => {
      const target = checkWebhookUrl(url, AddressAllowlist.empty);
      return target.ok ? "allowed" : target.reason;
    };
    expect(reason("http://hooks.example.com/")).toBe("https_required");
    expect(reason("https://a:b@hooks.example.com/")).toBe("credentials_not_allowed");
    expect(reason("https://localhost/")).toBe("hostname_not_allowed");
    expect(reason("https://10.0.0.1/")).toBe("address_not_allowed");
    expect(reason("nonsense")).toBe("not_a_url");
  });

  it("lets an allowlisted literal through only with the allowlist", () => {
    const loopback = AddressAllowlist.of(["127.0.0.1/32"]);
    expect(checkWebhookUrl("https://127.0.0.1:9443/", AddressAllowlist.empty).ok).toBe(false);
    expect(checkWebhookUrl("https://127.0.0.1:9443/", loopback)).toMatchObject({ ok: true, port: 9443 });
    // The allowlist is for addresses: it never makes localhost a valid name.
    expect(checkWebhookUrl("https://localhost:9443/", loopback).ok).toBe(false);
    expect(checkWebhookUrl("https://127.0.0.2/", loopback).ok).toBe(false);
  });
});

describe("checkResolution", () => {
  it("pins the first answer when every answer is public", () => {
    const verdict = checkResolution(
      [
        { address: "93.184.216.34", family: 4 },
        { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 },
      ],
      AddressAllowlist.empty,
    );
    expect(verdict).toMatchObject({ allowed: true, pinned: { address: "93.184.216.34", family: 4 } });
  });

  it("refuses an answer whose family does not match its address", () => {
    expect(checkResolution([{ address: "93.184.216.34", family: 6 }], AddressAllowlist.empty)).toEqual({
      allowed: false,
      category: "not_an_ip_address",
    });
  });
});

describe("address categories", () => {
  const category = (text: string) => refusedCategory(parseIpAddress(text)!);

  it("names the block an address is refused for", () => {
    expect(category("169.254.169.254")).toBe("cloud_metadata");
    expect(category("169.254.1.1")).toBe("link_local");
    expect(category("100.64.1.1")).toBe("cgnat");
    expect(category("127.9.9.9")).toBe("loopback");
    expect(category("::ffff:10.0.0.1")).toBe("ipv4_embedded");
    expect(category("2001:0:4136:e378::1")).toBe("ipv4_embedded");
    expect(category("4000::1")).toBe("reserved");
    expect(category("93.184.216.34")).toBeUndefined();
    expect(category("2a00:1450:4001:81b::200e")).toBeUndefined();
  });

  it("keeps IPv4 and IPv6 blocks apart (no implicit mapping either way)", () => {
    // ::ffff:0:0/96 covers no IPv4 address, and 127/8 covers no IPv6 address.
    expect(checkAddress("8.8.8.8", AddressAllowlist.empty).allowed).toBe(true);
    expect(checkAddress("::ffff:8.8.8.8", AddressAllowlist.empty).allowed).toBe(false);
    expect(checkAddress("::1", AddressAllowlist.of(["127.0.0.0/8"])).allowed).toBe(false);
  });

  it("refuses what is not a canonical address", () => {
    for (const text of ["0177.0.0.1", "127.1", "0x7f000001", "fe80::1%eth0", "1.2.3.4.5", "", "::g"])
      expect(checkAddress(text, AddressAllowlist.empty)).toEqual({
        allowed: false,
        category: "not_an_ip_address",
      });
  });
});
