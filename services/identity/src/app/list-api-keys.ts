import { parsePage } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { API_KEY_COLUMNS, type ApiKeyRecord } from "../db/api-keys.js";
import type { IdentityDb } from "../db/schema.js";

export interface ListApiKeysInput {
  limit: number;
  offset: number;
  includeRevoked: boolean;
}

export interface ApiKeyPage {
  apiKeys: ApiKeyRecord[];
  total: number;
  limit: number;
  offset: number;
}

/** The caller's keys, newest first; revoked ones only when asked for. */
export function makeListApiKeys(deps: { db: Kysely<IdentityDb> }) {
  return async function listApiKeys(accountId: string, input: ListApiKeysInput): Promise<ApiKeyPage> {
    const page = parsePage(input);
    let query = deps.db.selectFrom("api_keys").where("account_id", "=", accountId);
    if (!input.includeRevoked) query = query.where("revoked_at", "is", null);
    const [apiKeys, count] = await Promise.all([
      query
        .select(API_KEY_COLUMNS)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { apiKeys, total: Number(count.n), ...page };
  };
}
