import { create } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import { type Account, AccountSchema, type IdentityService, Role, Tier } from "@petri/contracts/identity";
import { FakeClock } from "@petri/testkit";
import { describe, expect, it } from "vitest";
import { AccountViews } from "./account-views.js";
import type { RevocationState } from "./revocations.js";

/** GetAccount answers, one per call, released by the test. */
function scriptedIdentity() {
  const pending: Array<(account: Account) => void> = [];
  const client = {
    getAccount: () =>
      new Promise<{ account: Account }>((resolve) => pending.push((account) => resolve({ account }))),
  } as unknown as Client<typeof IdentityService>;
  return { client, pending };
}

const account = (id: string, role = Role.REQUESTER) =>
  create(AccountSchema, { id, email: `${id}@example.org`, name: id, role, tier: Tier.STANDARD });

function viewsWith(identity: Client<typeof IdentityService>, epochs = new Map<string, number>()) {
  const revocations = { epochOf: (id: string) => epochs.get(id) ?? 0 } as unknown as RevocationState;
  const clock = new FakeClock("2026-03-02T10:00:00.000Z");
  return { views: new AccountViews({ identity, clock, revocations, maxEntries: 2 }), epochs, clock };
}

describe("AccountViews", () => {
  it("does not keep a view fetched while this gateway changed an account", async () => {
    const identity = scriptedIdentity();
    const { views } = viewsWith(identity.client);
    const racing = views.own("usr_a");
    views.accountChanged();
    identity.pending.shift()!(account("usr_a", Role.STAFF));
    expect((await racing).account.role).toBe("staff"); // the answer of its own request stands

    const next = views.own("usr_a");
    expect(identity.pending).toHaveLength(1); // not served from the cache
    identity.pending.shift()!(account("usr_a"));
    expect((await next).account.role).toBe("requester");
  });

  it("does not serve a view fetched before an epoch the revocation state learnt meanwhile", async () => {
    const identity = scriptedIdentity();
    const { views, epochs } = viewsWith(identity.client);
    const racing = views.own("usr_a");
    epochs.set("usr_a", 1);
    identity.pending.shift()!(account("usr_a", Role.STAFF));
    await racing;

    const next = views.own("usr_a");
    expect(identity.pending).toHaveLength(1);
    identity.pending.shift()!(account("usr_a"));
    await next;
    const cached = views.own("usr_a");
    expect(identity.pending).toHaveLength(0); // fetched under the current epoch: kept
    expect((await cached).account.role).toBe("requester");
  });

  it("keeps at most maxEntries views, the least recently used going first", async () => {
    const identity = scriptedIdentity();
    const { views } = viewsWith(identity.client);
    const fetch = async (id: string) => {
      const view = views.own(id);
      if (identity.pending.length > 0) identity.pending.shift()!(account(id));
      return view;
    };
    await fetch("usr_a");
    await fetch("usr_b");
    await fetch("usr_a"); // cached; b is now the oldest
    await fetch("usr_c");
    let asked = 0;
    for (const id of ["usr_a", "usr_c", "usr_b"]) {
      const view = views.own(id);
      if (identity.pending.length > 0) {
        asked += 1;
        identity.pending.shift()!(account(id));
      }
      expect((await view).account.id).toBe(id);
    }
    expect(asked).toBe(1); // only usr_b was evicted
  });

  it("asks again once a view is older than its lifetime", async () => {
    const identity = scriptedIdentity();
    const { views, clock } = viewsWith(identity.client);
    const first = views.own("usr_a");
    identity.pending.shift()!(account("usr_a"));
    await first;
    await clock.set(clock.now().getTime() + views.ttlMs - 1);
    await views.own("usr_a");
    expect(identity.pending).toHaveLength(0);
    await clock.set(clock.now().getTime() + 1);
    const again = views.own("usr_a");
    expect(identity.pending).toHaveLength(1);
    identity.pending.shift()!(account("usr_a"));
    await again;
  });
});
