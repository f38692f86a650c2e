import { type Clock, ValidationError } from "@petri/service-kit";
import { type Kysely, sql } from "kysely";
import type { IdentityDb } from "../db/schema.js";
import type { AccountTier } from "../domain/account-access.js";
import {
  type QuotaPolicyName,
  type WindowState,
  bindingWindow,
  grantFor,
  quotaRules,
  validateDraw,
  windowBounds,
} from "../domain/quota.js";

export interface AcquireQuotaInput {
  policy: QuotaPolicyName | undefined;
  /** Account id (account), source address (anonymous, auth_failures) or pair (credential_failures). */
  subject: string;
  tier: AccountTier | undefined;
  requested: number;
}

export interface QuotaDraw {
  granted: number;
  binding: WindowState;
  windows: WindowState[];
}

/**
 * Draws up to `requested` from every window of a policy, atomically across all replicas:
 *
 * 1. One upsert creates the window counters that do not exist yet and locks all of them
 *    (ON CONFLICT DO UPDATE takes the row lock and returns the latest committed count),
 *    always in the same order (minute, then day), so concurrent draws queue, never deadlock.
 * 2. grant = min(requested, remaining of every window), computed under those locks.
 * 3. One guarded UPDATE per window adds the grant.
 *
 * All in one transaction: concurrent draws serialise on the rows and never lose an update.
 */
export function makeAcquireQuota(deps: { db: Kysely<IdentityDb>; clock: Clock }) {
  return async function acquireQuota(input: AcquireQuotaInput): Promise<QuotaDraw> {
    const problems = validateDraw(input);
    if (problems.length > 0 || !input.policy)
      throw new ValidationError("the quota draw is invalid", problems);
    const policy = input.policy;
    const subject = input.subject;
    const now = deps.clock.now();
    const windows = quotaRules(policy, input.tier).map((rule) => ({
      ...rule,
      ...windowBounds(rule.name, now),
    }));

    return deps.db.transaction().execute(async (trx) => {
      const locked = await trx
        .insertInto("quota_counters")
        .values(
          windows.map((window) => ({
            policy,
            subject,
            window_name: window.name,
            window_start: window.start,
            window_end: window.end,
            used: 0,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(["policy", "subject", "window_name", "window_start"])
            // A no-op update: it exists to lock the row and return its current count.
            .doUpdateSet({ used: sql<number>`quota_counters.used` }),
        )
        .returning(["window_name", "used"])
        .execute();
      const usedBefore = new Map(locked.map((row) => [row.window_name, row.used]));
      const counted = windows.map((window) => ({ ...window, used: usedBefore.get(window.name) ?? 0 }));
      const granted = grantFor(input.requested, counted);

      const after: WindowState[] = [];
      for (const window of counted) {
        let used = window.used;
        if (granted > 0) {
          const row = await trx
            .updateTable("quota_counters")
            .set((eb) => ({ used: eb("used", "+", granted) }))
            .where("policy", "=", policy)
            .where("subject", "=", subject)
            .where("window_name", "=", window.name)
            .where("window_start", "=", window.start)
            // The guard: never past the limit, whatever happened above.
            .where(sql<number>`used + ${granted}`, "<=", window.limit)
            .returning("used")
            .executeTakeFirst();
          if (!row) throw new Error(`quota counter ${policy}/${window.name} moved while locked`);
          used = row.used;
        }
        after.push({
          name: window.name,
          limit: window.limit,
          remaining: Math.max(0, window.limit - used),
          resetsAt: window.end,
        });
      }
      return { granted, binding: bindingWindow(after), windows: after };
    });
  };
}
