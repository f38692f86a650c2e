import type { Clock } from "@petri/service-kit";
import type { Kysely } from "kysely";
import type { SigningKeyStateName } from "@petri/contracts/vocabulary";
import type { IdentityDb } from "../db/schema.js";
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from "../security/access-tokens.js";

export interface PublishedSigningKey {
  kid: string;
  publicJwk: Record<string, string>;
  state: SigningKeyStateName;
  createdAt: Date;
  retiresAt: Date | null;
}

export interface SigningKeySet {
  keys: PublishedSigningKey[];
  issuer: string;
  audience: string;
}

/** The public keys that verify access tokens now: the active one and unexpired retiring ones. */
export async function publishedSigningKeys(
  db: Kysely<IdentityDb>,
  now: Date,
): Promise<PublishedSigningKey[]> {
  const rows = await db
    .selectFrom("signing_keys")
    .select(["kid", "public_jwk", "state", "created_at", "retires_at"])
    .where((eb) => eb.or([eb("state", "=", "active"), eb("retires_at", ">", now)]))
    // Active first, then the newest retiring keys.
    .orderBy((eb) => eb.case().when("state", "=", "active").then(0).else(1).end())
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((row) => ({
    kid: row.kid,
    publicJwk: row.public_jwk,
    state: row.state,
    createdAt: row.created_at,
    retiresAt: row.retires_at,
  }));
}

export function makeListSigningKeys(deps: { db: Kysely<IdentityDb>; clock: Clock }) {
  return async function listSigningKeys(): Promise<SigningKeySet> {
    return {
      keys: await publishedSigningKeys(deps.db, deps.clock.now()),
      issuer: ACCESS_TOKEN_ISSUER,
      audience: ACCESS_TOKEN_AUDIENCE,
    };
  };
}
