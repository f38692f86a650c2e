/**
 * Staff dead letters end to end, standalone: identity's operator-role consumer is made to fail
 * (failpoint), so a lab's verification lands in identity's dead letters and the role does not
 * follow; staff list it, a replay while it still fails keeps it pending with the new reason,
 * a replay once it works grants the role, and replaying again does nothing more.
 */
import { FAILPOINT, Failpoints } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { staffClient } from "./experiments.scenarios.js";
import { eventually, newUnverifiedOperator, verificationRecord } from "./marketplace.scenarios.js";
import { CONSUMER, SLOW_POLL, operatorRoleGranted } from "./dead-letters.scenarios.js";
import { standaloneOfBlock } from "./support/blocks.js";

const FAILS = `${FAILPOINT.consumerHandlerFails}:${CONSUMER}`;

describe("staff dead letters, standalone mode", { timeout: 180_000 }, () => {
  const failpoints = new Failpoints();
  const deployment = standaloneOfBlock("petri-e2e-dead-letters", {}, { failpoints });

  it("a failing consumer's event is listed, replayed once it works, and applied once", async () => {
    const { target } = deployment;
    const staff = await staffClient(target);
    failpoints.arm(FAILS, "throw");
    const { client: lab, operatorId } = await newUnverifiedOperator(target, "dead-letter-lab");
    const verified = await staff.call("POST", `/admin/operators/${operatorId}/verify`, verificationRecord());
    expect(verified.status, verified.text).toBe(200);

    const listPath = `/admin/dead-letters?service=identity&consumer=${CONSUMER}`;
    const pending = await eventually(
      "the verification dead-lettered",
      async () => {
        const list = await staff.call("GET", listPath);
        expect(list.status, list.text).toBe(200);
        const found = list.body.dead_letters.filter((d: { type: string }) =>
          /OperatorEligibilityChanged$/.test(d.type),
        );
        return found.length > 0 ? (list.body.dead_letters as Array<Record<string, any>>) : undefined;
      },
      SLOW_POLL,
    );
    const verification = pending.find((d) => /OperatorEligibilityChanged$/.test(d.type))!;
    expect(verification).toMatchObject({
      service: "identity",
      consumer: CONSUMER,
      status: "pending",
      replayed_at: null,
      reason: expect.stringContaining("handler failed"),
    });
    expect(verification.dead_letter_id).toMatch(/^dl_identity_\d+$/);
    // Across all services, newest first, the same entry is there.
    const everything = await staff.call("GET", "/admin/dead-letters");
    expect(everything.body.dead_letters.map((d: { dead_letter_id: string }) => d.dead_letter_id)).toContain(
      verification.dead_letter_id,
    );
    expect((await lab.call("GET", "/auth/me")).body.account.role).toBe("requester");
    // Not for the lab.
    expect((await lab.call("GET", "/admin/dead-letters")).status).toBe(403);

    // Still failing: stays pending with the new reason and one more attempt.
    const replayPath = (id: string) => `/admin/dead-letters/${id}/replay`;
    const failed = await staff.call("POST", replayPath(verification.dead_letter_id));
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body).toMatchObject({
      outcome: "failed",
      dead_letter: { status: "pending", attempts: verification.attempts + 1 },
    });

    // Working again: replay every pending one of this consumer, oldest first.
    failpoints.disarm(FAILS);
    for (const deadLetter of [...pending].reverse()) {
      const replayed = await staff.call("POST", replayPath(deadLetter.dead_letter_id));
      expect(replayed.status, replayed.text).toBe(200);
      expect(["applied", "duplicate", "skipped"]).toContain(replayed.body.outcome);
      expect(replayed.body.dead_letter).toMatchObject({
        status: "replayed",
        replayed_by: expect.any(String),
      });
    }
    await operatorRoleGranted(lab);
    expect((await staff.call("GET", listPath)).body.dead_letters).toEqual([]);
    const withReplayed = await staff.call("GET", `${listPath}&include_replayed=true`);
    expect(withReplayed.body.dead_letters.map((d: { status: string }) => d.status)).toContain("replayed");

    // Twice: nothing more happens; an unknown id is 404 in the error envelope.
    const again = await staff.call("POST", replayPath(verification.dead_letter_id));
    expect(again.body.outcome).toBe("already_replayed");
    const unknown = await staff.call("POST", replayPath("dl_identity_999999"));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
  });
});
