import type { FieldError } from "@petri/service-kit";

/** Active (unrevoked) keys per account; more is a conflict, not a silent eviction. */
export const MAX_ACTIVE_API_KEYS = 25;
export const API_KEY_NAME_MAX_LENGTH = 100;
/** The name of the key RegisterAccount creates. */
export const DEFAULT_API_KEY_NAME = "default";
/** last_used_at is written at most this often per key, so authentication stays read-mostly. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export function validateApiKeyName(name: string): FieldError[] {
  const trimmed = name.trim();
  if (trimmed === "") return [{ field: "name", code: "missing_required", message: "name is required" }];
  if ([...trimmed].length > API_KEY_NAME_MAX_LENGTH)
    return [
      {
        field: "name",
        code: "invalid_value",
        message: `name is longer than ${API_KEY_NAME_MAX_LENGTH} characters`,
      },
    ];
  return [];
}

/** True when a use at `now` should be recorded (never recorded, or last recorded a minute ago). */
export function shouldRecordUse(lastUsedAt: Date | null, now: Date): boolean {
  return lastUsedAt === null || now.getTime() - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS;
}
