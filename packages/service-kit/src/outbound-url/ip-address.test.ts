import fc from "fast-check";
import { isIPv4, isIPv6 } from "node:net";
import { describe, expect, it } from "vitest";
import { cidr, cidrContains, formatIpAddress, parseCidr, parseIpAddress } from "./ip-address.js";

const bytesOf = (text: string) => [...parseIpAddress(text)!.bytes];

describe("parseIpAddress", () => {
  it("reads dotted-decimal IPv4", () => {
    expect(bytesOf("93.184.216.34")).toEqual([93, 184, 216, 34]);
    expect(parseIpAddress("256.1.1.1")).toBeUndefined();
    expect(parseIpAddress("01.1.1.1")).toBeUndefined();
  });

  it("reads IPv6 with ::, brackets and a trailing dotted quad", () => {
    expect(bytesOf("::1")).toEqual([...Array(15).fill(0), 1]);
    expect(bytesOf("[::1]")).toEqual(bytesOf("0:0:0:0:0:0:0:1"));
    expect(bytesOf("::ffff:127.0.0.1")).toEqual(bytesOf("::ffff:7f00:1"));
    expect(bytesOf("::127.0.0.1")).toEqual(bytesOf("::7f00:1"));
    expect(bytesOf("64:ff9b::a9fe:a9fe")).toEqual(bytesOf("64:ff9b:0:0:0:0:a9fe:a9fe"));
    expect(bytesOf("1:2:3:4:5:6:1.2.3.4")).toEqual(bytesOf("1:2:3:4:5:6:102:304"));
    for (const bad of [
      "1::2::3",
      ":1:2:3:4:5:6:7",
      "1:2:3:4:5:6:7:8:9",
      "12345::",
      "::ffff:1.2.3",
      "fe80::1%1",
      ":::",
    ])
      expect(parseIpAddress(bad), bad).toBeUndefined();
  });

  it("agrees with node:net on which strings are addresses, and round-trips them", () => {
    const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => parts.join("."));
    fc.assert(
      fc.property(fc.oneof(v4, fc.ipV6()), (text) => {
        const parsed = parseIpAddress(text);
        expect(parsed !== undefined).toBe(isIPv4(text) || isIPv6(text));
        if (parsed) expect(bytesOf(formatIpAddress(parsed))).toEqual([...parsed.bytes]);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("CIDR blocks", () => {
  it("match on the prefix bits only", () => {
    expect(cidrContains(cidr("172.16.0.0/12"), parseIpAddress("172.31.255.255")!)).toBe(true);
    expect(cidrContains(cidr("172.16.0.0/12"), parseIpAddress("172.32.0.0")!)).toBe(false);
    expect(cidrContains(cidr("fc00::/7"), parseIpAddress("fdff::1")!)).toBe(true);
    expect(cidrContains(cidr("fc00::/7"), parseIpAddress("fe00::1")!)).toBe(false);
    expect(cidrContains(cidr("0.0.0.0/0"), parseIpAddress("8.8.8.8")!)).toBe(true);
    expect(cidrContains(cidr("0.0.0.0/0"), parseIpAddress("::1")!)).toBe(false);
  });

  it("treat a bare address as a single host and refuse malformed blocks", () => {
    expect(parseCidr("127.0.0.1")).toMatchObject({ family: 4, prefix: 32 });
    expect(parseCidr("::1")).toMatchObject({ family: 6, prefix: 128 });
    for (const bad of ["10.0.0.0/33", "::/129", "10.0.0.0/x", "10.0.0/8", "1.2.3.4/8/9"])
      expect(parseCidr(bad), bad).toBeUndefined();
  });
});
