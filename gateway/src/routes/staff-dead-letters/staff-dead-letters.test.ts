import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { type DeadLetter, DeadLetterSchema } from "@petri/contracts/common";
import { Role, Tier } from "@petri/contracts/identity";
import { kPrincipal } from "@petri/service-kit";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf } from "../../../test/support/fake-identity.js";
import { caller } from "../../../test/support/requests.js";
import { compareNewestFirst, decodeDeadLetterCursor } from "./dead-letter-order.js";

const SOURCE = "198.51.100.191";
const NOW = "2026-03-02T10:00:00.000Z";

let identity: FakeIdentity;
let call: ReturnType<typeof caller>;
let staffId: string;
/** The dead letters each service holds, as its DeadLetterService would give them. */
let held: DeadLetter[];
let calls: Array<{ service: string; method: string; request: any; role: string | undefined }>;

function deadLetter(
  service: string,
  rowId: number,
  failedAt: string,
  consumer = `${service}--x`,
): DeadLetter {
  return create(DeadLetterSchema, {
    id: `dl_${service}_${rowId}`,
    service,
    consumer,
    eventId: `evt_${service}_${rowId}`,
    subject: `petri.${service}.thing`,
    type: "petri.test.v1.Thing",
    reason: "boom",
    attempts: 5,
    failedAt: timestampFromDate(new Date(failedAt)),
  });
}

const position = (d: DeadLetter) => ({
  failedAt: timestampDate(d.failedAt!),
  service: d.service,
  rowId: Number(d.id.split("_").at(-1)),
});

beforeEach(async () => {
  const clock = new FakeClock(NOW);
  identity = await FakeIdentity.create(clock);
  held = [];
  calls = [];
  identity.deadLetterService = (service) => ({
    async listDeadLetters(request, ctx) {
      calls.push({ service, method: "list", request, role: ctx.values.get(kPrincipal)?.role });
      const after = request.after
        ? {
            failedAt: timestampDate(request.after.failedAt!),
            service: request.after.service,
            rowId: Number(request.after.rowId),
          }
        : undefined;
      const rows = held
        .filter((d) => d.service === service && !d.replayedAt)
        .filter((d) => !request.consumer || d.consumer === request.consumer)
        .filter((d) => !after || compareNewestFirst(after, position(d)) < 0)
        .sort((a, b) => compareNewestFirst(position(a), position(b)))
        .slice(0, request.limit);
      return { deadLetters: rows };
    },
    async replayDeadLetter(request, ctx) {
      const principal = ctx.values.get(kPrincipal);
      calls.push({ service, method: "replay", request, role: principal?.role });
      const found = held.find((d) => d.id === request.deadLetterId);
      if (!found) throw new ConnectError("dead letter not found", Code.NotFound);
      const already = found.replayedAt !== undefined;
      found.replayedAt = timestampFromDate(new Date(NOW));
      found.replayedBy = principal!.accountId;
      return { deadLetter: found, outcome: already ? "already_replayed" : "applied" };
    },
  });
  const app = await gatewayWithServices(identity, {});
  const staff = identity.addAccount({ role: Role.STAFF, tier: Tier.PRO });
  staffId = staff.account.id;
  call = caller(app, SOURCE, () => staff.secret);
});

describe("staff dead letters", () => {
  it("are staff only: requesters and operators get 403 without a call", async () => {
    for (const role of [Role.REQUESTER, Role.OPERATOR]) {
      const key = identity.addAccount({ role }).secret;
      expect((await call("GET", "/admin/dead-letters", undefined, key)).status).toBe(403);
      expect((await call("POST", "/admin/dead-letters/dl_identity_1/replay", undefined, key)).status).toBe(
        403,
      );
    }
    expect(calls).toEqual([]);
  });

  it("GET /admin/dead-letters merges every service's, newest first, in pages that neither skip nor repeat", async () => {
    held.push(
      deadLetter("identity", 1, "2026-03-01T09:00:00.000Z"),
      deadLetter("notifications", 7, "2026-03-01T11:00:00.000Z"),
      deadLetter("experiments", 3, "2026-03-01T10:00:00.000Z"),
      // The same instant in two services, and twice in one.
      deadLetter("engine", 2, "2026-03-01T10:00:00.000Z"),
      deadLetter("experiments", 4, "2026-03-01T10:00:00.000Z"),
    );
    const first = await call("GET", "/admin/dead-letters?limit=2");
    expect(first.status).toBe(200);
    const body = await bodyOf(first);
    expect(body.dead_letters.map((d: any) => d.dead_letter_id)).toEqual([
      "dl_notifications_7",
      "dl_experiments_4",
    ]);
    expect(body.dead_letters[0]).toEqual({
      dead_letter_id: "dl_notifications_7",
      service: "notifications",
      consumer: "notifications--x",
      event_id: "evt_notifications_7",
      subject: "petri.notifications.thing",
      type: "petri.test.v1.Thing",
      reason: "boom",
      attempts: 5,
      failed_at: "2026-03-01T11:00:00.000Z",
      status: "pending",
      replayed_at: null,
      replayed_by: null,
    });
    expect(body.pagination).toMatchObject({ total: null, has_more: true });
    expect(new Set(calls.map((c) => c.service)).size).toBe(7);
    expect(calls.every((c) => c.request.limit === 3 && c.role === "staff")).toBe(true);

    const seen: string[] = body.dead_letters.map((d: any) => d.dead_letter_id);
    let cursor: string | null = body.pagination.cursor;
    while (cursor) {
      const page = await bodyOf(await call("GET", `/admin/dead-letters?limit=2&cursor=${cursor}`));
      seen.push(...page.dead_letters.map((d: any) => d.dead_letter_id));
      cursor = page.pagination.cursor;
    }
    expect(seen).toEqual([
      "dl_notifications_7",
      "dl_experiments_4",
      "dl_experiments_3",
      "dl_engine_2",
      "dl_identity_1",
    ]);
  });

  it("filters by service and consumer, and refuses bad parameters with 422", async () => {
    held.push(
      deadLetter("identity", 1, "2026-03-01T09:00:00.000Z"),
      deadLetter("engine", 2, "2026-03-01T09:00:00.000Z"),
    );
    const onlyEngine = await bodyOf(
      await call("GET", "/admin/dead-letters?service=engine&consumer=engine--x"),
    );
    expect(onlyEngine.dead_letters.map((d: any) => d.dead_letter_id)).toEqual(["dl_engine_2"]);
    expect(calls.map((c) => c.service)).toEqual(["engine"]);
    expect(calls[0]!.request.consumer).toBe("engine--x");
    for (const query of ["service=mail", "limit=0", "cursor=nope", "include_replayed=yes"]) {
      const response = await call("GET", `/admin/dead-letters?${query}`);
      expect(response.status, query).toBe(422);
      expect((await bodyOf(response)).error.code).toBe("validation_failed");
    }
    expect(decodeDeadLetterCursor("bm9wZQ")).toBeUndefined();
  });

  it("POST /admin/dead-letters/{id}/replay goes to the service the id names; unknown ids are 404", async () => {
    held.push(deadLetter("notifications", 7, "2026-03-01T11:00:00.000Z"));
    const response = await call("POST", "/admin/dead-letters/dl_notifications_7/replay");
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(body).toMatchObject({
      outcome: "applied",
      dead_letter: {
        dead_letter_id: "dl_notifications_7",
        status: "replayed",
        replayed_by: staffId,
        replayed_at: NOW,
      },
    });
    expect(calls).toEqual([
      expect.objectContaining({
        service: "notifications",
        method: "replay",
        request: expect.objectContaining({ deadLetterId: "dl_notifications_7" }),
      }),
    ]);
    expect(await bodyOf(await call("GET", "/admin/dead-letters"))).toMatchObject({ dead_letters: [] });

    for (const id of ["dl_notifications_8", "dl_mail_1", "nope", "dl_notifications_0"]) {
      const missing = await call("POST", `/admin/dead-letters/${id}/replay`);
      expect(missing.status, id).toBe(404);
      expect((await bodyOf(missing)).error.code).toBe("not_found");
    }
    // Only the well-formed id of a real service reached a service.
    expect(calls.filter((c) => c.method === "replay")).toHaveLength(2);
  });
});
