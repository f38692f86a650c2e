import { describe, expect, it } from "vitest";
import { UNKNOWN_ADDRESS, normaliseAddress, sourceAddress } from "./source-address.js";

describe("source address", () => {
  it("uses the socket's peer and ignores X-Forwarded-For unless the proxy is trusted", () => {
    expect(sourceAddress("203.0.113.7", "198.51.100.1", false)).toBe("203.0.113.7");
    expect(sourceAddress("10.0.0.2", "198.51.100.1, 192.0.2.9", true)).toBe("192.0.2.9");
    // A client-written leftmost entry is never taken.
    expect(sourceAddress("10.0.0.2", "1.1.1.1, 192.0.2.9", true)).not.toBe("1.1.1.1");
    // A garbage header falls back to the peer.
    expect(sourceAddress("10.0.0.2", "nonsense", true)).toBe("10.0.0.2");
    expect(sourceAddress(undefined, undefined, false)).toBe(UNKNOWN_ADDRESS);
  });

  it("reduces IPv4-mapped addresses to IPv4 and IPv6 to its /64", () => {
    expect(normaliseAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(normaliseAddress("::ffff:7f00:1")).toBe("127.0.0.1");
    expect(normaliseAddress("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(normaliseAddress("2001:db8:1:2::99")).toBe("2001:db8:1:2::/64");
    expect(normaliseAddress("[2001:db8::1]")).toBe("2001:db8:0:0::/64");
    expect(normaliseAddress("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(normaliseAddress("::1")).toBe("0:0:0:0::/64");
    expect(normaliseAddress("not an address")).toBe(UNKNOWN_ADDRESS);
    expect(normaliseAddress("")).toBe(UNKNOWN_ADDRESS);
  });
});
