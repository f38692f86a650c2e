/**
 * What both modes' dead-letter tests share: the consumer they make fail (identity's, which
 * grants a verified lab the operator role) and the waits on it.
 */
import type { Client } from "./experiments.scenarios.js";
import { eventually } from "./marketplace.scenarios.js";

export const CONSUMER = "identity-operator-roles";
/** Five deliveries with backoff take a while: a staff request a second stays under 100 a minute. */
export const SLOW_POLL = { intervalMs: 1_000, timeoutMs: 90_000 };

/** Waits until the consumer, replayed, has granted `lab` the operator role. */
export async function operatorRoleGranted(lab: Client): Promise<void> {
  await eventually(
    "the operator role",
    async () => {
      const me = await lab.call("GET", "/auth/me");
      return me.body?.account?.role === "operator" ? true : undefined;
    },
    SLOW_POLL,
  );
}
