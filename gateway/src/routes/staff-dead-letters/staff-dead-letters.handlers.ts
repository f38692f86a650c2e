import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { RouteHandler } from "@hono/zod-openapi";
import type { ServiceName } from "@petri/contracts";
import { type DeadLetter, DeadLetterPositionSchema } from "@petri/contracts/common";
import { asCaller } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { ApiError } from "../../lib/problem.js";
import { callService } from "../../lib/service-call.js";
import { isoOrNull } from "../../lib/timestamps.js";
import {
  type DeadLetterPosition,
  decodeDeadLetterCursor,
  encodeDeadLetterCursor,
  mergeNewestFirst,
  serviceOfDeadLetter,
} from "./dead-letter-order.js";
import type * as routes from "./staff-dead-letters.routes.js";

function deadLetterJson(deadLetter: DeadLetter) {
  return {
    dead_letter_id: deadLetter.id,
    service: deadLetter.service,
    consumer: deadLetter.consumer,
    event_id: deadLetter.eventId,
    subject: deadLetter.subject,
    type: deadLetter.type,
    reason: deadLetter.reason,
    attempts: deadLetter.attempts,
    failed_at: isoOrNull(deadLetter.failedAt) ?? "",
    status: deadLetter.replayedAt ? ("replayed" as const) : ("pending" as const),
    replayed_at: isoOrNull(deadLetter.replayedAt),
    replayed_by: deadLetter.replayedBy || null,
  };
}

function positionOf(deadLetter: DeadLetter): DeadLetterPosition {
  return {
    failedAt: deadLetter.failedAt ? timestampDate(deadLetter.failedAt) : new Date(0),
    service: deadLetter.service,
    rowId: Number(deadLetter.id.slice(deadLetter.id.lastIndexOf("_") + 1)),
  };
}

export const listDeadLettersHandler: RouteHandler<typeof routes.listDeadLetters, GatewayEnv> = async (c) => {
  const { service, consumer, include_replayed, limit, cursor } = c.req.valid("query");
  const after = cursor === undefined ? undefined : decodeDeadLetterCursor(cursor);
  if (cursor !== undefined && !after)
    throw new ApiError(422, "validation_failed", "the request is invalid", {
      errors: [
        { field: "cursor", path: "cursor", code: "invalid_value", message: "not a cursor of this list" },
      ],
    });
  const { clients } = c.get("runtime");
  const services = service ? [service] : (Object.keys(clients.deadLetters) as ServiceName[]);
  // One more than a page from each service tells whether another page follows.
  const pages = await Promise.all(
    services.map((name) =>
      callService(() =>
        clients.deadLetters[name].listDeadLetters(
          {
            limit: limit + 1,
            consumer: consumer ?? "",
            includeReplayed: include_replayed,
            ...(after
              ? {
                  after: create(DeadLetterPositionSchema, {
                    failedAt: timestampFromDate(after.failedAt),
                    service: after.service,
                    rowId: BigInt(after.rowId),
                  }),
                }
              : {}),
          },
          asCaller(),
        ),
      ),
    ),
  );
  const merged = mergeNewestFirst(
    pages.flatMap((page) => page.deadLetters),
    positionOf,
  );
  const page = merged.slice(0, limit);
  const hasMore = merged.length > limit;
  const last = page.at(-1);
  return c.json(
    {
      dead_letters: page.map(deadLetterJson),
      pagination: {
        total: null,
        cursor: hasMore && last ? encodeDeadLetterCursor(positionOf(last)) : null,
        has_more: hasMore,
      },
    },
    200,
  );
};

export const replayDeadLetterHandler: RouteHandler<typeof routes.replayDeadLetter, GatewayEnv> = async (
  c,
) => {
  const { dead_letter_id } = c.req.valid("param");
  const { clients } = c.get("runtime");
  const service = serviceOfDeadLetter(dead_letter_id, Object.keys(clients.deadLetters) as ServiceName[]);
  if (!service) throw new ApiError(404, "not_found", `dead letter ${dead_letter_id} was not found`);
  const result = await callService(() =>
    clients.deadLetters[service].replayDeadLetter({ deadLetterId: dead_letter_id }, asCaller()),
  );
  const outcome = result.outcome as "applied" | "duplicate" | "skipped" | "already_replayed" | "failed";
  return c.json({ outcome, dead_letter: deadLetterJson(result.deadLetter!) }, 200);
};
