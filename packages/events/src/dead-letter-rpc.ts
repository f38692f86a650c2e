import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter, HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { ServiceName } from "@petri/contracts";
import {
  type DeadLetter,
  DeadLetterSchema,
  DeadLetterService,
  ListDeadLettersResponseSchema,
  ReplayDeadLetterResponseSchema,
} from "@petri/contracts/common";
import { NotFoundError, authorizeAccount, kPrincipal } from "@petri/service-kit";
import { type DeadLetterRow, type DeadLetters, deadLetterId, parseDeadLetterId } from "./dead-letters.js";

const DEFAULT_LIMIT = 20;
/** A page of the staff list is at most 100; the gateway asks one more to learn whether more follow. */
const MAX_LIMIT = 101;

function deadLetterMessage(service: ServiceName, row: DeadLetterRow): DeadLetter {
  return create(DeadLetterSchema, {
    id: deadLetterId(service, Number(row.id)),
    service,
    consumer: row.consumer,
    eventId: row.event_id,
    subject: row.subject,
    type: row.type,
    reason: row.reason,
    attempts: row.attempts,
    failedAt: timestampFromDate(row.failed_at),
    ...(row.replayed_at ? { replayedAt: timestampFromDate(row.replayed_at) } : {}),
    replayedBy: row.replayed_by ?? "",
  });
}

const staffOnly = (ctx: HandlerContext) => authorizeAccount(ctx.values.get(kPrincipal), "staff");

/** petri.common.v1.DeadLetterService over one service's dead letters (staff only). */
export function createDeadLetterRpc(service: ServiceName, deadLetters: DeadLetters) {
  return {
    async listDeadLetters(request, ctx) {
      staffOnly(ctx);
      const limit = Math.min(MAX_LIMIT, Math.max(1, request.limit || DEFAULT_LIMIT));
      const after = request.after?.failedAt
        ? {
            failedAt: timestampDate(request.after.failedAt),
            service: request.after.service,
            rowId: Number(request.after.rowId),
          }
        : undefined;
      const rows = await deadLetters.list({
        limit,
        after,
        consumer: request.consumer || undefined,
        includeReplayed: request.includeReplayed,
      });
      return create(ListDeadLettersResponseSchema, {
        deadLetters: rows.map((row) => deadLetterMessage(service, row)),
      });
    },
    async replayDeadLetter(request, ctx) {
      const staff = staffOnly(ctx);
      const parsed = parseDeadLetterId(request.deadLetterId);
      if (!parsed || parsed.service !== service) throw new NotFoundError("dead letter", request.deadLetterId);
      const outcome = await deadLetters.replay(parsed.rowId, staff.accountId);
      if (outcome.kind === "not_found") throw new NotFoundError("dead letter", request.deadLetterId);
      return create(ReplayDeadLetterResponseSchema, {
        deadLetter: deadLetterMessage(service, outcome.row),
        outcome: outcome.kind === "replayed" ? outcome.result : outcome.kind,
      });
    },
  } satisfies ServiceImpl<typeof DeadLetterService>;
}

/** Serves DeadLetterService next to the service's own RPCs. */
export function routeDeadLetters(
  router: ConnectRouter,
  service: ServiceName,
  deadLetters: DeadLetters,
): void {
  router.service(DeadLetterService, createDeadLetterRpc(service, deadLetters));
}
