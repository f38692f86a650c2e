/**
 * The HMAC key that signs file URLs: random, created by whichever replica needs it first and
 * shared by all (INSERT ... ON CONFLICT DO NOTHING, then read what won).
 */
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { FILE_URL_KEY_BYTES } from "../blobs/index.js";
import type { ExperimentsDb } from "./schema.js";

const FILE_URL_KEY_NAME = "result-files";

export async function fileUrlKey(db: Kysely<ExperimentsDb>, now: Date): Promise<Uint8Array> {
  await db
    .insertInto("file_url_keys")
    .values({
      name: FILE_URL_KEY_NAME,
      key: randomBytes(FILE_URL_KEY_BYTES).toString("base64"),
      created_at: now,
    })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const { key } = await db
    .selectFrom("file_url_keys")
    .select("key")
    .where("name", "=", FILE_URL_KEY_NAME)
    .executeTakeFirstOrThrow();
  return new Uint8Array(Buffer.from(key, "base64"));
}
