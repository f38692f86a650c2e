/**
 * The staff dead-letter list across services: one order, (failed_at, service, row id)
 * descending, which every service applies to its own rows after a cursor position, so the
 * gateway merges the services' pages without skipping or repeating an entry.
 */
import type { ServiceName } from "@petri/contracts";

export interface DeadLetterPosition {
  failedAt: Date;
  service: string;
  rowId: number;
}

/** Negative when `a` comes first (newer) in the list. */
export function compareNewestFirst(a: DeadLetterPosition, b: DeadLetterPosition): number {
  const byTime = b.failedAt.getTime() - a.failedAt.getTime();
  if (byTime !== 0) return byTime;
  if (a.service !== b.service) return a.service < b.service ? 1 : -1;
  return b.rowId - a.rowId;
}

export function mergeNewestFirst<T>(items: T[], positionOf: (item: T) => DeadLetterPosition): T[] {
  return [...items].sort((a, b) => compareNewestFirst(positionOf(a), positionOf(b)));
}

/** The opaque ?cursor: base64url of the last entry's position. */
export function encodeDeadLetterCursor(position: DeadLetterPosition): string {
  const text = JSON.stringify([position.failedAt.getTime(), position.service, position.rowId]);
  return Buffer.from(text).toString("base64url");
}

export function decodeDeadLetterCursor(cursor: string): DeadLetterPosition | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(value) || value.length !== 3) return undefined;
    const [time, service, rowId] = value as [unknown, unknown, unknown];
    if (typeof time !== "number" || !Number.isSafeInteger(time) || time < 0) return undefined;
    if (typeof service !== "string" || !/^[a-z-]{1,40}$/.test(service)) return undefined;
    if (typeof rowId !== "number" || !Number.isSafeInteger(rowId) || rowId < 1) return undefined;
    return { failedAt: new Date(time), service, rowId };
  } catch {
    return undefined;
  }
}

/** The service holding a dead letter ("dl_<service>_<row>"), or undefined for an id that names none. */
export function serviceOfDeadLetter(id: string, services: readonly ServiceName[]): ServiceName | undefined {
  const match = /^dl_([a-z-]+)_[1-9][0-9]{0,15}$/.exec(id);
  return services.find((service) => service === match?.[1]);
}
