import type { Client } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { AuthenticatedPrincipalSchema, type IdentityService, Role, Tier } from "@petri/contracts/identity";
import { createLogger } from "@petri/service-kit";
import { FakeClock } from "@petri/testkit";
import { describe, expect, it } from "vitest";
import { formatApiKey } from "./api-key-format.js";
import { ApiKeyAuthenticator } from "./api-keys.js";

const KEY = formatApiKey("abcdefghijklmnopqrstuvwxyzABCDEF");

function deferredIdentity() {
  const pending: Array<() => void> = [];
  let calls = 0;
  const identity = {
    authenticateApiKey: () => {
      calls += 1;
      return new Promise((resolve) =>
        pending.push(() =>
          resolve({
            apiKeyId: "key_1",
            principal: create(AuthenticatedPrincipalSchema, {
              accountId: "usr_1",
              role: Role.REQUESTER,
              tier: Tier.STANDARD,
            }),
          }),
        ),
      );
    },
  } as unknown as Client<typeof IdentityService>;
  return { identity, release: () => pending.splice(0).forEach((go) => go()), calls: () => calls };
}

describe("ApiKeyAuthenticator", () => {
  it("shares one lookup between concurrent requests with the same key", async () => {
    const { identity, release, calls } = deferredIdentity();
    const keys = new ApiKeyAuthenticator({
      identity,
      clock: new FakeClock(),
      logger: createLogger({ service: "t", level: "silent" }),
    });
    const all = Promise.all([keys.authenticate(KEY), keys.authenticate(KEY), keys.authenticate(KEY)]);
    await Promise.resolve();
    release();
    expect((await all).map((p) => p.accountId)).toEqual(["usr_1", "usr_1", "usr_1"]);
    expect(calls()).toBe(1);
  });

  it("does not cache a lookup that was in flight when the key was revoked", async () => {
    const { identity, release, calls } = deferredIdentity();
    const keys = new ApiKeyAuthenticator({
      identity,
      clock: new FakeClock(),
      logger: createLogger({ service: "t", level: "silent" }),
    });
    const racing = keys.authenticate(KEY);
    await Promise.resolve();
    keys.evict("key_1"); // the revoke completed while identity was still answering
    release();
    await racing;
    const next = keys.authenticate(KEY);
    await Promise.resolve();
    release();
    await next;
    expect(calls()).toBe(2); // asked again: the raced answer was not cached
  });
});
