/**
 * A describe block on the real services whose accounts are signed up once for the block
 * (D354): each sign-up costs several argon2id hashes, so files whose tests isolate by the
 * resource they create (an experiment id, a dispute id) share a requester, a second account
 * and a lab. Tests that count what an account owns sign up an account of their own.
 */
import { FakeClock } from "@petri/testkit";
import { describe } from "vitest";
import { marketplaceHelpers } from "./real-marketplace.js";
import {
  type RealServicesScope,
  type SignedUp,
  realServicesAvailable,
  realServicesOfBlock,
} from "./real-services.js";

const realServicesReady = await realServicesAvailable();

export interface SharedScope extends RealServicesScope {
  /** The block's active lab (verified by staff), when `labName` is given. */
  lab(): { operatorId: string; apiKey: string };
  /** Calls as the bootstrapped staff account. */
  asStaff(method: string, path: string, body?: unknown): Promise<Response>;
}

export function describeWithSharedAccounts(
  name: string,
  options: { start: string; source: string; labName?: string },
  body: (scope: SharedScope) => void,
): void {
  describe.skipIf(!realServicesReady)(name, () => {
    const clock = new FakeClock(options.start);
    let accounts: { account: SignedUp; otherKey: string; lab?: { operatorId: string; apiKey: string } };
    const { running, call } = realServicesOfBlock({
      source: options.source,
      key: () => accounts.account.apiKey,
      start: () => ({ clock }),
      prepare: async (petri) => {
        const account = await petri.signUp({ tier: "pro" });
        const otherKey = (await petri.signUp({ tier: "pro" })).apiKey;
        const lab = options.labName === undefined ? undefined : await activeLab(options.labName);
        accounts = { account, otherKey, lab };
      },
    });
    const { asStaff, activeLab } = marketplaceHelpers({ petri: running, call });
    body({
      petri: running,
      clock,
      call,
      account: () => accounts.account,
      otherKey: () => accounts.otherKey,
      lab: () => {
        if (!accounts.lab) throw new Error("no lab: give the block a labName");
        return accounts.lab;
      },
      asStaff,
    });
  });
}
