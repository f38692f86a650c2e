/**
 * Staff dead letters in cluster mode (a process per service, NATS, two gateways): identity's
 * operator-role consumer fails its first ten handler runs (FAILPOINTS in its environment), so
 * both eligibility events of a lab (submitted, verified) are dead-lettered after five
 * deliveries each; staff list them through either gateway, replay them, and the role follows
 * once; a second replay does nothing more.
 */
import { FAILPOINT } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { staffClient } from "./experiments.scenarios.js";
import { eventually, newUnverifiedOperator, verificationRecord } from "./marketplace.scenarios.js";
import { CONSUMER, SLOW_POLL, operatorRoleGranted } from "./dead-letters.scenarios.js";
import { clusterOfBlock } from "./support/blocks.js";
import { clusterInfraReady } from "./support/hosts.js";

describe.skipIf(!(await clusterInfraReady()))(
  "staff dead letters, cluster mode",
  { timeout: 180_000 },
  () => {
    const deployment = clusterOfBlock("deadletters", {
      env: { FAILPOINTS: `${FAILPOINT.consumerHandlerFails}:${CONSUMER}=throw*10` },
    });

    it("dead-lettered events are listed, replayed, and applied once", async () => {
      const { target } = deployment;
      const staff = await staffClient(target);
      const { client: lab, operatorId } = await newUnverifiedOperator(target, "dead-letter-cluster-lab");
      const verified = await staff.call(
        "POST",
        `/admin/operators/${operatorId}/verify`,
        verificationRecord(),
      );
      expect(verified.status, verified.text).toBe(200);

      const listPath = `/admin/dead-letters?consumer=${CONSUMER}`;
      const pending = await eventually(
        "both eligibility events dead-lettered",
        async () => {
          const list = await staff.call("GET", listPath);
          expect(list.status, list.text).toBe(200);
          return list.body.dead_letters.length === 2
            ? (list.body.dead_letters as Array<Record<string, any>>)
            : undefined;
        },
        SLOW_POLL,
      );
      expect(
        pending.every((d) => d.service === "identity" && d.status === "pending" && d.attempts === 5),
      ).toBe(true);
      expect((await lab.call("GET", "/auth/me")).body.account.role).toBe("requester");

      for (const deadLetter of [...pending].reverse()) {
        const replayed = await staff.call("POST", `/admin/dead-letters/${deadLetter.dead_letter_id}/replay`);
        expect(replayed.status, replayed.text).toBe(200);
        expect(replayed.body).toMatchObject({ outcome: "applied", dead_letter: { status: "replayed" } });
      }
      await operatorRoleGranted(lab);
      expect((await staff.call("GET", listPath)).body.dead_letters).toEqual([]);
      const again = await staff.call("POST", `/admin/dead-letters/${pending[0]!.dead_letter_id}/replay`);
      expect(again.body.outcome).toBe("already_replayed");
    });
  },
);
