import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { AddressAllowlist } from "@petri/service-kit";
import { guardedLookup } from "./webhook-sender.js";

type Answer = { error: Error | null; address: string | LookupAddress[]; family?: number | undefined };

function lookUp(answers: string[], all: boolean, allowlist = AddressAllowlist.empty): Promise<Answer> {
  const lookup = guardedLookup(
    async () => answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
    allowlist,
  );
  return new Promise((resolve) =>
    lookup("hooks.example.com", { all }, (error, address, family) => resolve({ error, address, family })),
  );
}

describe("guardedLookup (the connect-time check)", () => {
  it("hands the socket the checked address, in both callback forms", async () => {
    expect(await lookUp(["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"], true)).toEqual({
      error: null,
      address: [{ address: "93.184.216.34", family: 4 }],
      family: undefined,
    });
    expect(await lookUp(["93.184.216.34"], false)).toEqual({
      error: null,
      address: "93.184.216.34",
      family: 4,
    });
  });

  it("fails the connection when any answer is refused", async () => {
    const refused = await lookUp(["93.184.216.34", "10.0.0.1"], true);
    expect(refused.error?.message).toMatch(/refused \(private\)/);
    expect((await lookUp([], false)).error?.message).toMatch(/no_addresses/);
    expect((await lookUp(["127.0.0.1"], false, AddressAllowlist.of(["127.0.0.1/32"]))).address).toBe(
      "127.0.0.1",
    );
  });

  it("passes a resolver failure on", async () => {
    const lookup = guardedLookup(async () => {
      throw new Error("getaddrinfo ENOTFOUND hooks.example.com");
    }, AddressAllowlist.empty);
    const error = await new Promise<Error | null>((resolve) =>
      lookup("hooks.example.com", {}, (e) => resolve(e)),
    );
    expect(error?.message).toMatch(/ENOTFOUND/);
  });
});
