import { describe, expect, it } from "vitest";
import { endpointsOf, serviceUrlsSchema, type LookupAll } from "./endpoints.js";

describe("serviceUrlsSchema", () => {
  it("reads one URL or a comma-separated list", () => {
    expect(serviceUrlsSchema.parse("http://experiments-headless:8080")).toEqual([
      "http://experiments-headless:8080",
    ]);
    expect(serviceUrlsSchema.parse(" http://127.0.0.1:7102, http://127.0.0.1:7111 ,")).toEqual([
      "http://127.0.0.1:7102",
      "http://127.0.0.1:7111",
    ]);
  });

  it("refuses an entry that is not an http(s) URL, and an empty setting", () => {
    const bad = serviceUrlsSchema.safeParse("http://127.0.0.1:7102,ftp://files:21");
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({
      path: [1],
      message: 'entry "ftp://files:21" is not an http:// or https:// URL',
    });
    expect(serviceUrlsSchema.safeParse("127.0.0.1:7102").success).toBe(false);
    expect(serviceUrlsSchema.safeParse(" , ").error?.issues[0]?.message).toBe(
      "must name at least one http(s) URL",
    );
  });
});

describe("endpointsOf", () => {
  const lookup: LookupAll = async (hostname) =>
    hostname === "experiments-headless" ? [{ address: "10.1.0.7" }, { address: "fd00::8" }] : [];

  it("turns a host name into one endpoint per address, same scheme, port and path", async () => {
    expect(await endpointsOf("http://experiments-headless:8080/", lookup)).toEqual([
      "http://10.1.0.7:8080",
      "http://[fd00::8]:8080",
    ]);
    expect(await endpointsOf("http://experiments-headless/rpc/", lookup)).toEqual([
      "http://10.1.0.7/rpc",
      "http://[fd00::8]/rpc",
    ]);
  });

  it("keeps IP addresses and https host names as they are", async () => {
    const never: LookupAll = () => Promise.reject(new Error("must not resolve"));
    expect(await endpointsOf("http://127.0.0.1:7102", never)).toEqual(["http://127.0.0.1:7102"]);
    expect(await endpointsOf("http://[::1]:7102", never)).toEqual(["http://[::1]:7102"]);
    expect(await endpointsOf("https://experiments.example.org", never)).toEqual([
      "https://experiments.example.org",
    ]);
  });
});
