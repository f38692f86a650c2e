/**
 * The request body as sent (null properties dropped), with the lookups the cross-field checks
 * share: they read what was sent, not only what parsed, so that one malformed section does not
 * hide the rules about the others.
 */
import { child, isPlainObject, ownValue, withoutNullProperties } from "../paths.js";
import { PROTOCOL_TYPES, type ProtocolType } from "../schema/common.js";
import { MAX_DEPTH } from "../safety/walk.js";

export interface RawRequest {
  body: Record<string, unknown>;
  /** A top-level field as sent (own properties only). */
  get(key: string): unknown;
  /** The protocol section, when it is an object. */
  protocol?: Record<string, unknown>;
  /** protocol.type as sent, whatever its value. */
  protocolTypeSent: unknown;
  /** protocol.type when it is one of the protocol types. */
  protocolType?: ProtocolType;
  /** A custom protocol was sent (custom_protocol or protocol.custom_protocol). */
  customProtocolSent: boolean;
}

export function readRawRequest(input: Record<string, unknown>): RawRequest {
  const body = withoutNullProperties(input, MAX_DEPTH) as Record<string, unknown>;
  const get = (key: string): unknown => ownValue(body, key);
  const protocol = isPlainObject(get("protocol")) ? (get("protocol") as Record<string, unknown>) : undefined;
  const protocolTypeSent = child(protocol, "type");
  const protocolType = PROTOCOL_TYPES.find((t) => t === protocolTypeSent) as ProtocolType | undefined;
  return {
    body,
    get,
    ...(protocol !== undefined ? { protocol } : {}),
    protocolTypeSent,
    ...(protocolType !== undefined ? { protocolType } : {}),
    customProtocolSent:
      get("custom_protocol") !== undefined || child(protocol, "custom_protocol") !== undefined,
  };
}
