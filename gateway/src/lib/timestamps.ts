import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";

/** A protobuf Timestamp as an ISO 8601 UTC string; null when the message has none. */
export function isoOrNull(timestamp: Timestamp | undefined): string | null {
  return timestamp ? timestampDate(timestamp).toISOString() : null;
}
