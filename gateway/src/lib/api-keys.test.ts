import type { Client } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { AuthenticatedPrincipalSchema, type IdentityService, Role, Tier } from "@petri/contracts/identity";
import { createLogger } from "@petri/service-kit";
import { FakeClock } from "@petri/testkit";
import { describe, expect, it } from "vitest";
import { formatApiKey } from "./api-key-format.js";
import { ApiKeyAuthenticator } from "./api-keys.js";
import { RevocationState } from "./revocations.js";

const KEY = formatApiKey("abcdefghijklmnopqrstuvwxyzABCDEF");

const logger = createLogger({ service: "t", level: "silent" });

function deferredIdentity() {
  const pending: Array<() => void> = [];
  let calls = 0;
  const account = { role: Role.REQUESTER, epoch: 0n };
  const identity = {
    authenticateApiKey: () => {
      calls += 1;
      const { role, epoch } = account;
      return new Promise((resolve) =>
        pending.push(() =>
          resolve({
            apiKeyId: "key_1",
            principal: create(AuthenticatedPrincipalSchema, {
              accountId: "usr_1",
              role,
              tier: Tier.STANDARD,
            }),
            credentialsEpoch: epoch,
          }),
        ),
      );
    },
    listRevocations: async () => ({ epochs: [], tokens: [], accessTokenTtlSeconds: 3600n }),
  } as unknown as Client<typeof IdentityService>;
  return { identity, account, release: () => pending.splice(0).forEach((go) => go()), calls: () => calls };
}

function authenticator(identity: Client<typeof IdentityService>, clock = new FakeClock()) {
  const revocations = new RevocationState({ identity, clock, logger, watch: false });
  return { keys: new ApiKeyAuthenticator({ identity, clock, logger, revocations }), revocations };
}

/** Settles the lookup a call started (it first awaits the revocation state). */
async function answered<T>(call: Promise<T>, release: () => void): Promise<T> {
  for (let turn = 0; turn < 50; turn += 1) {
    release();
    const settled = await Promise.race([call.then(() => true), new Promise((r) => setImmediate(r, false))]);
    if (settled) break;
  }
  return call;
}

describe("ApiKeyAuthenticator", () => {
  it("shares one lookup between concurrent requests with the same key", async () => {
    const { identity, release, calls } = deferredIdentity();
    const { keys } = authenticator(identity);
    const all = Promise.all([keys.authenticate(KEY), keys.authenticate(KEY), keys.authenticate(KEY)]);
    expect((await answered(all, release)).map((p) => p.accountId)).toEqual(["usr_1", "usr_1", "usr_1"]);
    expect(calls()).toBe(1);
  });

  it("does not cache a lookup that was in flight when the key was revoked", async () => {
    const { identity, release, calls } = deferredIdentity();
    const { keys } = authenticator(identity);
    await answered(keys.authenticate(KEY), release); // the revocation state is loaded
    keys.evict("key_1");
    const racing = keys.authenticate(KEY);
    for (let turn = 0; turn < 50 && calls() < 2; turn += 1) await new Promise((r) => setImmediate(r));
    keys.evict("key_1"); // the revoke completed while identity was still answering
    await answered(racing, release);
    await answered(keys.authenticate(KEY), release);
    expect(calls()).toBe(3); // asked again: the raced answer was not cached
  });

  it("drops a cached answer once a higher credentials epoch of its account is known", async () => {
    const { identity, account, release, calls } = deferredIdentity();
    const { keys, revocations } = authenticator(identity);
    account.role = Role.STAFF;
    expect((await answered(keys.authenticate(KEY), release)).role).toBe("staff");
    expect((await keys.authenticate(KEY)).role).toBe("staff"); // cached
    expect(calls()).toBe(1);

    // Demoted: identity raised the epoch and the event reached this gateway.
    account.role = Role.REQUESTER;
    account.epoch = 1n;
    revocations.raiseEpoch("usr_1", 1, undefined);
    expect((await answered(keys.authenticate(KEY), release)).role).toBe("requester");
    expect(calls()).toBe(2);
    expect((await keys.authenticate(KEY)).role).toBe("requester"); // the new answer is cached
    expect(calls()).toBe(2);
    // Another account's raise leaves this entry alone.
    revocations.raiseEpoch("usr_2", 5, undefined);
    await keys.authenticate(KEY);
    expect(calls()).toBe(2);
  });
});
