/**
 * GET /webhooks/deliveries (and /experiments/{id}/webhook-deliveries): the delivery log,
 * newest first, keyset-paginated: status, attempts, the last response code and latency, the
 * next attempt time. An account sees its own deliveries; staff may name any account.
 */
import { type Principal, ValidationError, decodeKeysetCursor, parseLimit } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { countDeliveries, listDeliveries } from "../db/deliveries.js";
import {
  DELIVERY_STATUSES,
  type DeliveryStatus,
  type NotificationsDb,
  type WebhookDeliveryRow,
} from "../db/schema.js";
import { listedAccount } from "../domain/authorization.js";
import { keysetPage } from "./keyset-page.js";

export interface DeliveryPage {
  deliveries: WebhookDeliveryRow[];
  total: number;
  nextCursor: string;
  hasMore: boolean;
}

function parseStatus(status: string): DeliveryStatus | undefined {
  if (status === "") return undefined;
  if ((DELIVERY_STATUSES as readonly string[]).includes(status)) return status as DeliveryStatus;
  throw new ValidationError("the status filter is invalid", [
    {
      field: "status",
      code: "invalid_value",
      message: `status must be one of ${DELIVERY_STATUSES.join(", ")}`,
    },
  ]);
}

export function makeListWebhookDeliveries(deps: { db: Kysely<NotificationsDb> }) {
  return async function listWebhookDeliveries(
    principal: Principal,
    input: { experimentId: string; status: string; limit: number; cursor: string; accountId: string },
  ): Promise<DeliveryPage> {
    const limit = parseLimit(input.limit);
    const after = input.cursor === "" ? undefined : decodeKeysetCursor(input.cursor);
    const filter = {
      accountId: listedAccount(principal, input.accountId),
      experimentId: input.experimentId === "" ? undefined : input.experimentId,
      status: parseStatus(input.status),
    };
    const [rows, total] = await Promise.all([
      listDeliveries(deps.db, filter, after, limit + 1),
      countDeliveries(deps.db, filter),
    ]);
    const { page, hasMore, nextCursor } = keysetPage(rows, limit, (row) => row.created_at);
    return { deliveries: page, total, hasMore, nextCursor };
  };
}
