import { validRequests } from "@petri/fixtures";
import { FAILPOINT } from "@petri/service-kit";
import { beforeAll, expect, it } from "vitest";
import {
  compareNewestFirst,
  decodeDeadLetterCursor,
} from "../../src/routes/staff-dead-letters/dead-letter-order.js";
import { marketplaceHelpers } from "../support/real-marketplace.js";
import { describeWithSharedAccounts } from "../support/real-services-shared.js";
import { bodyOf } from "../support/requests.js";

type DeadLetterJson = Record<string, any> & { dead_letter_id: string; failed_at: string };

/** A new lab's registration and verification fail here, in two services... */
const ON_SIGN_UP = ["notifications-accounts", "identity-operator-roles"];
/** ...and a claim later in a third consumer. */
const ON_CLAIM = "notifications-webhooks";
const fails = (consumer: string) => `${FAILPOINT.consumerHandlerFails}:${consumer}`;
const position = (d: DeadLetterJson) => ({
  failedAt: new Date(d.failed_at),
  service: d.service as string,
  rowId: Number(d.dead_letter_id.split("_").at(-1)),
});

describeWithSharedAccounts(
  "staff dead-letter routes on the real services",
  { start: "2026-03-02T10:00:00.000Z", source: "198.51.100.191", labName: "Lab One" },
  (scope) => {
    const { call, clock, petri, asStaff, lab } = scope;
    const { activeLab, claim } = marketplaceHelpers(scope);
    const list = async (query = "") => {
      const response = await asStaff("GET", `/admin/dead-letters${query}`);
      expect(response.status).toBe(200);
      return bodyOf(response);
    };

    /**
     * The dead letters of `consumer` once its five deliveries have failed: the bus redelivers
     * after a backoff on the services' clock, so the test moves it on between looks.
     */
    async function deadLettersOf(consumer: string): Promise<DeadLetterJson[]> {
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const found = (await list(`?limit=100`)).dead_letters.filter(
          (d: DeadLetterJson) => d.consumer === consumer,
        );
        if (found.length > 0) return found;
        await clock.advance(5_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`no dead letter of ${consumer}`);
    }

    /** Runs `action` while `consumers` fail, until each has a dead letter. */
    async function whileFailing(consumers: string[], action: () => Promise<unknown>) {
      for (const consumer of consumers) petri().failpoints.arm(fails(consumer), "throw");
      await action();
      for (const consumer of consumers) await deadLettersOf(consumer);
      for (const consumer of consumers) petri().failpoints.disarm(fails(consumer));
    }

    let held: DeadLetterJson[];
    beforeAll(async () => {
      // Without its operator role the new lab only stands for the events; the shared lab claims.
      await whileFailing(ON_SIGN_UP, () => activeLab("Lab Two"));
      await clock.advance(3_600_000);
      const posted = await bodyOf(await call("POST", "/experiments", validRequests.MIC_MBC_ASSAY));
      await whileFailing([ON_CLAIM], async () =>
        expect((await claim(lab().apiKey, posted.experiment_id)).status).toBe(200),
      );
      // Deliveries already under way when a consumer was fixed settle before the snapshot.
      await clock.advance(60_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      held = (await list("?limit=100")).dead_letters;
    }, 180_000);

    const ids = (letters: DeadLetterJson[]) => letters.map((d) => d.dead_letter_id);

    it("are staff only: a requester and an operator get 403, and nothing is replayed", async () => {
      for (const key of [scope.account().apiKey, lab().apiKey]) {
        const listed = await call("GET", "/admin/dead-letters", undefined, key);
        expect(listed.status).toBe(403);
        expect((await bodyOf(listed)).error.code).toBe("forbidden");
        const replay = await call(
          "POST",
          `/admin/dead-letters/${held[0]!.dead_letter_id}/replay`,
          undefined,
          key,
        );
        expect(replay.status).toBe(403);
      }
      expect((await list("?limit=100")).dead_letters).toEqual(held);
    });

    it("GET /admin/dead-letters merges every service's, newest first, in pages that neither skip nor repeat", async () => {
      // A dead letter per failed event: the lab's registration, its eligibility changes (how
      // many the marketplace sends is its business), the claim.
      expect(held.length).toBeGreaterThanOrEqual(3);
      expect(new Set(held.map((d) => d.service))).toEqual(new Set(["identity", "notifications"]));
      expect([...held].sort((a, b) => compareNewestFirst(position(a), position(b)))).toEqual(held);
      // The claim's, an hour later, comes first.
      expect(held[0]).toEqual({
        dead_letter_id: expect.stringMatching(/^dl_notifications_\d+$/),
        service: "notifications",
        consumer: ON_CLAIM,
        event_id: expect.stringMatching(/^evt_/),
        subject: "petri.experiments.experiment_claimed",
        type: "petri.experiments.v1.ExperimentClaimed",
        reason: expect.stringContaining("handler failed"),
        attempts: 5,
        failed_at: expect.any(String),
        status: "pending",
        replayed_at: null,
        replayed_by: null,
      });

      const first = await list("?limit=2");
      expect(ids(first.dead_letters)).toEqual(ids(held.slice(0, 2)));
      expect(first.pagination).toMatchObject({ total: null, has_more: true });
      const seen = ids(first.dead_letters);
      let cursor: string | null = first.pagination.cursor;
      while (cursor) {
        const page = await list(`?limit=2&cursor=${cursor}`);
        seen.push(...ids(page.dead_letters));
        cursor = page.pagination.cursor;
      }
      expect(seen).toEqual(ids(held));
    });

    it("filters by service and consumer, and refuses bad parameters with 422", async () => {
      const identity = await list("?service=identity&consumer=identity-operator-roles");
      expect(ids(identity.dead_letters)).toEqual(ids(held.filter((d) => d.service === "identity")));
      expect(identity.dead_letters.length).toBeGreaterThan(0);
      const accounts = await list("?service=notifications&consumer=notifications-accounts");
      expect(accounts.dead_letters.map((d: DeadLetterJson) => d.consumer)).toEqual([
        "notifications-accounts",
      ]);
      expect(ids(accounts.dead_letters)).toEqual(
        ids(held.filter((d) => d.consumer === "notifications-accounts")),
      );
      expect((await list("?service=engine")).dead_letters).toEqual([]);
      for (const query of ["service=mail", "limit=0", "cursor=nope", "include_replayed=yes"]) {
        const response = await asStaff("GET", `/admin/dead-letters?${query}`);
        expect(response.status, query).toBe(422);
        expect((await bodyOf(response)).error.code).toBe("validation_failed");
      }
      expect(decodeDeadLetterCursor("bm9wZQ")).toBeUndefined();
    });

    it("POST /admin/dead-letters/{id}/replay applies it in the service the id names, once; unknown ids are 404", async () => {
      const registration = held.find((d) => d.consumer === "notifications-accounts")!;
      const staffId = (await bodyOf(await asStaff("GET", "/auth/me"))).account.id;
      const path = `/admin/dead-letters/${registration.dead_letter_id}/replay`;
      const response = await asStaff("POST", path);
      expect(response.status).toBe(200);
      expect(await bodyOf(response)).toEqual({
        outcome: "applied",
        dead_letter: {
          ...registration,
          status: "replayed",
          replayed_by: staffId,
          replayed_at: clock.now().toISOString(),
        },
      });
      expect(ids((await list("?limit=100")).dead_letters)).toEqual(
        ids(held.filter((d) => d !== registration)),
      );
      const withReplayed = await list("?limit=100&include_replayed=true");
      expect(
        withReplayed.dead_letters.find(
          (d: DeadLetterJson) => d.dead_letter_id === registration.dead_letter_id,
        ),
      ).toMatchObject({ status: "replayed" });
      expect((await bodyOf(await asStaff("POST", path))).outcome).toBe("already_replayed");

      for (const id of ["dl_notifications_999", "dl_mail_1", "nope", "dl_notifications_0"]) {
        const missing = await asStaff("POST", `/admin/dead-letters/${id}/replay`);
        expect(missing.status, id).toBe(404);
        expect((await bodyOf(missing)).error.code).toBe("not_found");
      }
    });
  },
);
