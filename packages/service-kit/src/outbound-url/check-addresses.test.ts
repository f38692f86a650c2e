import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError, loadConfig } from "../config.js";
import { AddressAllowlist } from "./address-policy.js";
import { webhookTestAllowlistConfigSchema, webhookTestAllowlistFromConfig } from "./allowlist-config.js";
import { checkWebhookUrlAddresses } from "./check-addresses.js";
import type { ResolvedAddress, Resolver } from "./resolution.js";

/** A fake resolver: hostname -> answers; any other name is NXDOMAIN. Records what it was asked. */
function fakeResolver(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolver: Resolver = async (hostname) => {
    asked.push(hostname);
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return answers.map((address): ResolvedAddress => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { resolver, asked };
}

const { resolver, asked } = fakeResolver({
  "hooks.example.org": ["93.184.215.14"],
  "dual.example.org": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "private.example.org": ["10.0.0.5"],
  "loopback.example.org": ["127.0.0.1"],
  "metadata.example.org": ["169.254.169.254"],
  "mapped.example.org": ["::ffff:127.0.0.1"],
  "mixed.example.org": ["93.184.215.14", "10.0.0.5"],
  "empty.example.org": [],
});
const none = AddressAllowlist.empty;
const check = (url: string, allowlist = none) => checkWebhookUrlAddresses(url, { resolver, allowlist });

describe("checkWebhookUrlAddresses", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("accepts a name whose every answer is public, with the URL as it will be called", async () => {
    expect(await check("https://Hooks.Example.org/petri#x")).toEqual({
      outcome: "ok",
      target: expect.objectContaining({
        url: "https://hooks.example.org/petri",
        hostname: "hooks.example.org",
      }),
    });
    expect((await check("https://dual.example.org/")).outcome).toBe("ok");
  });

  it("accepts a public literal without resolving anything", async () => {
    const before = asked.length;
    expect((await check("https://93.184.215.14/hook")).outcome).toBe("ok");
    expect(asked.length).toBe(before);
  });

  it("refuses by the text rules before any lookup", async () => {
    const before = asked.length;
    for (const [url, reason] of [
      ["http://hooks.example.org/", "https_required"],
      ["https://user:pw@hooks.example.org/", "credentials_not_allowed"],
      ["https://localhost/", "hostname_not_allowed"],
      ["https://10.0.0.5/", "address_not_allowed"],
      ["not a url", "not_a_url"],
    ] as const)
      expect(await check(url), url).toMatchObject({ outcome: "refused", reason });
    expect(asked.length).toBe(before);
  });

  it("refuses a name with any answer that is not public, naming the category but never the address", async () => {
    for (const [host, category] of [
      ["private.example.org", "private"],
      ["loopback.example.org", "loopback"],
      ["metadata.example.org", "cloud_metadata"],
      ["mapped.example.org", "ipv4_embedded"],
      ["mixed.example.org", "private"],
    ] as const) {
      const verdict = await check(`https://${host}/hook`);
      expect(verdict, host).toEqual({
        outcome: "refused",
        reason: "address_not_allowed",
        message: expect.any(String),
        category,
      });
      if (verdict.outcome === "refused") expect(verdict.message).not.toMatch(/\d+\.\d+|::/);
    }
  });

  it("lets an allowlisted answer through only with the allowlist", async () => {
    const loopback = AddressAllowlist.of(["127.0.0.1/32"]);
    expect((await check("https://loopback.example.org/", loopback)).outcome).toBe("ok");
    expect((await check("https://127.0.0.1:9443/", loopback)).outcome).toBe("ok");
    expect((await check("https://private.example.org/", loopback)).outcome).toBe("refused");
  });

  it("answers unresolved when the name does not resolve or has no address", async () => {
    expect(await check("https://nxdomain.example.org/")).toMatchObject({
      outcome: "unresolved",
      target: { hostname: "nxdomain.example.org" },
    });
    expect((await check("https://empty.example.org/")).outcome).toBe("unresolved");
    const throwing: Resolver = () => {
      throw new Error("resolver broke");
    };
    expect(
      (await checkWebhookUrlAddresses("https://hooks.example.org/", { resolver: throwing, allowlist: none }))
        .outcome,
    ).toBe("unresolved");
  });

  it("answers unresolved when the lookup takes longer than the timeout (3 s by default)", async () => {
    vi.useFakeTimers();
    const hanging: Resolver = () => new Promise(() => {});
    let settled: unknown;
    const pending = checkWebhookUrlAddresses("https://slow.example.org/", {
      resolver: hanging,
      allowlist: none,
    }).then((verdict) => (settled = verdict));
    await vi.advanceTimersByTimeAsync(2_900);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(100);
    await pending;
    expect(settled).toMatchObject({ outcome: "unresolved" });

    const quick = checkWebhookUrlAddresses("https://slow.example.org/", {
      resolver: hanging,
      allowlist: none,
      timeoutMs: 50,
    });
    await vi.advanceTimersByTimeAsync(50);
    expect((await quick).outcome).toBe("unresolved");
  });
});

describe("the test allowlist's configuration", () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(webhookTestAllowlistConfigSchema(), env);
      return [];
    } catch (error) {
      if (error instanceof ConfigError) return error.problems.map((p) => `${p.variable}: ${p.problem}`);
      throw error;
    }
  };

  it("is empty unless set, and parses CIDR blocks", () => {
    expect(webhookTestAllowlistFromConfig(loadConfig(webhookTestAllowlistConfigSchema(), {})).size).toBe(0);
    const config = loadConfig(webhookTestAllowlistConfigSchema(), {
      PETRI_WEBHOOK_TEST_ALLOWLIST: "127.0.0.1/32, ::1",
    });
    expect(webhookTestAllowlistFromConfig(config).size).toBe(2);
    expect(problems({ PETRI_WEBHOOK_TEST_ALLOWLIST: "127.0.0.1/40" })[0]).toMatch(
      /^PETRI_WEBHOOK_TEST_ALLOWLIST: must be CIDR blocks/,
    );
  });

  it("is refused when NODE_ENV is production", () => {
    expect(problems({ NODE_ENV: "production", PETRI_WEBHOOK_TEST_ALLOWLIST: "127.0.0.1/32" })).toEqual([
      'PETRI_WEBHOOK_TEST_ALLOWLIST: is for tests only and must not be set when NODE_ENV is production (got "127.0.0.1/32")',
    ]);
    expect(problems({ NODE_ENV: "production" })).toEqual([]);
  });
});
