import { createRoute, z } from "@hono/zod-openapi";
import { SERVICE_NAMES, type ServiceName } from "@petri/contracts";
import { restrictedTo } from "../../lib/access.js";
import { errorResponses, jsonResponse, lookupErrors } from "../../lib/openapi.js";
import { cursorPageQuery } from "../../lib/pagination.js";
import { queryFlag } from "../../lib/query.js";
import { OptionalTotalPaginationSchema } from "../experiments/experiments.schemas.js";

export const ListDeadLettersQuerySchema = z.object({
  service: z
    .enum(SERVICE_NAMES as [ServiceName, ...ServiceName[]])
    .optional()
    .openapi({ description: "Only this service's dead letters (default: every service)" }),
  consumer: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: "Only this consumer's, e.g. notifications--experiments" }),
  include_replayed: queryFlag(false, "true lists replayed dead letters too; by default only pending ones"),
  ...cursorPageQuery,
});

export const DeadLetterParamsSchema = z.object({
  dead_letter_id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ description: "dl_<service>_<number>", example: "dl_notifications_12" }),
});

export const DeadLetterSchema = z
  .object({
    dead_letter_id: z.string().openapi({
      description: "dl_<service>_<number>: the service holding it, and its row there",
      example: "dl_notifications_12",
    }),
    service: z.string().openapi({ example: "notifications" }),
    consumer: z.string().openapi({ description: "The consumer that gave up on the event" }),
    event_id: z.string().openapi({ example: "evt_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
    subject: z.string(),
    type: z.string().openapi({ description: "The event's payload type" }),
    reason: z.string().openapi({ description: "The last failure (a failed replay replaces it)" }),
    attempts: z.int().openapi({ description: "Deliveries and replays that failed" }),
    failed_at: z.string().openapi({ format: "date-time" }),
    status: z.enum(["pending", "replayed"]),
    replayed_at: z.string().nullable().openapi({ format: "date-time" }),
    replayed_by: z.string().nullable().openapi({ description: "The staff account that replayed it" }),
  })
  .openapi("DeadLetter");

export const DeadLetterListSchema = z
  .object({ dead_letters: z.array(DeadLetterSchema), pagination: OptionalTotalPaginationSchema })
  .openapi("DeadLetterList");

export const DeadLetterReplaySchema = z
  .object({
    outcome: z.enum(["applied", "duplicate", "skipped", "already_replayed", "failed"]).openapi({
      description:
        "applied: the consumer applied the event now; duplicate: it had been applied already (nothing done again); skipped: no handler takes it any more; already_replayed: replayed before, nothing done; failed: the consumer failed again, the dead letter stays pending with the new reason",
    }),
    dead_letter: DeadLetterSchema,
  })
  .openapi("DeadLetterReplay");

const staffOnly = restrictedTo("staff");

export const listDeadLetters = createRoute({
  method: "get",
  path: "/admin/dead-letters",
  operationId: "listDeadLetters",
  tags: ["Admin"],
  summary: "Events a service's consumer gave up on, newest first, across every service (staff only)",
  description:
    "Pending dead letters by default. Pages by cursor; pagination.total is null (the services are not counted).",
  ...staffOnly,
  request: { query: ListDeadLettersQuerySchema },
  responses: {
    200: jsonResponse("A page of dead letters", DeadLetterListSchema),
    ...errorResponses({ authenticated: true, parameters: true }),
  },
});

export const replayDeadLetter = createRoute({
  method: "post",
  path: "/admin/dead-letters/{dead_letter_id}/replay",
  operationId: "replayDeadLetter",
  tags: ["Admin"],
  summary: "Hands a dead letter's event to its consumer again (staff only)",
  description:
    "The consumer's inbox keeps the effect single: replaying twice, or an event applied in the meantime, applies nothing more. On success the dead letter is marked replayed (when, by whom) and leaves the pending list; a replay that fails again leaves it pending with the new reason (outcome failed).",
  ...staffOnly,
  request: { params: DeadLetterParamsSchema },
  responses: {
    200: jsonResponse("What the replay did, and the dead letter now", DeadLetterReplaySchema),
    ...lookupErrors("No such dead letter (not_found)"),
  },
});
