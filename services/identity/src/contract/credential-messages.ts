import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type ApiKey,
  ApiKeySchema,
  type QuotaWindow,
  QuotaWindowSchema,
  type SigningKey,
  SigningKeySchema,
  SigningKeyState,
} from "@petri/contracts/identity";
import type { ApiKeyRecord } from "../db/api-keys.js";
import type { WindowState } from "../domain/quota.js";
import type { PublishedSigningKey } from "../app/list-signing-keys.js";

export function apiKeyMessage(key: ApiKeyRecord): ApiKey {
  return create(ApiKeySchema, {
    id: key.id,
    name: key.name,
    displayPrefix: key.display_prefix,
    createdAt: timestampFromDate(key.created_at),
    ...(key.revoked_at ? { revokedAt: timestampFromDate(key.revoked_at) } : {}),
    ...(key.last_used_at ? { lastUsedAt: timestampFromDate(key.last_used_at) } : {}),
  });
}

export function signingKeyMessage(key: PublishedSigningKey): SigningKey {
  return create(SigningKeySchema, {
    kid: key.kid,
    publicJwkJson: JSON.stringify(key.publicJwk),
    state: key.state === "active" ? SigningKeyState.ACTIVE : SigningKeyState.RETIRING,
    createdAt: timestampFromDate(key.createdAt),
    ...(key.retiresAt ? { retiresAt: timestampFromDate(key.retiresAt) } : {}),
  });
}

export function quotaWindowMessage(window: WindowState): QuotaWindow {
  return create(QuotaWindowSchema, {
    name: window.name,
    limit: BigInt(window.limit),
    remaining: BigInt(window.remaining),
    resetsAt: timestampFromDate(window.resetsAt),
  });
}
