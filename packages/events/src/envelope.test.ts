import { create, isMessage } from "@bufbuild/protobuf";
import { events } from "@petri/contracts";
import {
  type AccountRegistered,
  AccountRegisteredSchema,
  AccountSchema,
  Role,
} from "@petri/contracts/identity";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { describe, expect, it } from "vitest";
import {
  buildEnvelope,
  decodeEnvelope,
  decodePayload,
  encodeEnvelope,
  envelopeOccurredAt,
  envelopeVersion,
  newEventId,
  UnknownEventTypeError,
} from "./envelope.js";

describe("envelope", () => {
  it("round-trips through binary protobuf and decodes its payload with the catalogue", () => {
    const occurredAt = new Date("2026-03-04T05:06:07.089Z");
    const envelope = buildEnvelope(
      events.identity.accountRegistered,
      { account: { id: "usr_1", email: "a@example.org", role: Role.OPERATOR } },
      {
        aggregateId: "usr_1",
        aggregateVersion: 3,
        occurredAt,
        traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      },
    );
    const decoded = decodeEnvelope(encodeEnvelope(envelope));
    expect(decoded).toEqual(envelope);
    expect(decoded.id).toMatch(/^evt_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(decoded.type).toBe("petri.identity.v1.AccountRegistered");
    expect(decoded.subject).toBe("petri.identity.account_registered");
    expect(decoded.source).toBe("identity");
    expect(envelopeVersion(decoded)).toBe(3);
    expect(envelopeOccurredAt(decoded)?.toISOString()).toBe(occurredAt.toISOString());

    const payload = decodePayload(decoded);
    expect(isMessage(payload, AccountRegisteredSchema)).toBe(true);
    expect(payload).toEqual(
      create(AccountRegisteredSchema, {
        account: create(AccountSchema, { id: "usr_1", email: "a@example.org", role: Role.OPERATOR }),
      }),
    );
  });

  it("refuses payload types outside the catalogue and garbage bytes", () => {
    const envelope = buildEnvelope(
      events.identity.accountRegistered,
      {},
      {
        aggregateId: "usr_1",
        aggregateVersion: 1,
        occurredAt: new Date(),
      },
    );
    expect(() => decodePayload({ ...envelope, type: "petri.nope.v1.Nothing" })).toThrow(
      UnknownEventTypeError,
    );
    expect(() => decodeEnvelope(new Uint8Array([0xff, 0xff, 0xff]))).toThrow();
  });

  it("makes unique, time-ordered event ids", () => {
    const a = newEventId(new Date("2026-01-01T00:00:00Z"));
    const b = newEventId(new Date("2026-01-01T00:00:00.001Z"));
    expect(a < b).toBe(true);
    const ids = new Set(Array.from({ length: 5_000 }, () => newEventId()));
    expect(ids.size).toBe(5_000);
  });
  it("decodes an envelope and payload of a newer release: the fields it added are passed over, the rest read", () => {
    // A rolled service's new replicas may publish fields this release does not know yet; the
    // consumers of the release before must read what they know and ignore the rest.
    const envelope = buildEnvelope(
      events.identity.accountRegistered,
      { account: { id: "usr_2", email: "b@example.org", role: Role.REQUESTER } },
      { aggregateId: "usr_2", aggregateVersion: 1, occurredAt: new Date("2026-03-04T05:06:07Z") },
    );
    const addedField = new BinaryWriter().tag(900, WireType.LengthDelimited).string("added later").finish();
    const newer = { ...envelope, data: new Uint8Array([...envelope.data, ...addedField]) };
    const bytes = new Uint8Array([...encodeEnvelope(newer), ...addedField]);

    const decoded = decodeEnvelope(bytes);
    expect(decoded.id).toBe(envelope.id);
    expect(decoded.type).toBe(envelope.type);
    expect(envelopeVersion(decoded)).toBe(1);
    const payload = decodePayload(decoded);
    expect(isMessage(payload, AccountRegisteredSchema)).toBe(true);
    expect((payload as AccountRegistered).account).toMatchObject({
      id: "usr_2",
      email: "b@example.org",
      role: Role.REQUESTER,
    });
  });
});
