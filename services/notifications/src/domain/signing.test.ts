import fc from "fast-check";
import { createHmac, timingSafeEqual } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  SIGNING_SECRET_PREFIX,
  formatSigningSecret,
  serviceSignature,
  signatureHeaders,
  standardSignature,
} from "./signing.js";

/**
 * A receiver's verification written from the two specifications, not from signing.ts: the
 * docs/api.md header is HMAC-SHA256(secret text, raw body) in lowercase hex after "sha256=";
 * the Standard Webhooks one is base64 HMAC-SHA256(base64-decoded key, "id.ts.body").
 */
function receiverAccepts(secret: string, body: Uint8Array, headers: Record<string, string>): boolean {
  const expectedHex = createHmac("sha256", secret).update(body).digest();
  const spec = (headers["x-service-signature"] ?? "")
    .split(",")
    .map((value) => value.trim())
    .some((value) => {
      if (!value.startsWith("sha256=")) return false;
      const got = Buffer.from(value.slice("sha256=".length), "hex");
      return got.length === expectedHex.length && timingSafeEqual(got, expectedHex);
    });
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const signed = Buffer.concat([
    Buffer.from(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.`, "utf8"),
    Buffer.from(body),
  ]);
  const expectedMac = createHmac("sha256", key).update(signed).digest();
  const standard = (headers["webhook-signature"] ?? "").split(" ").some((entry) => {
    const [version, mac] = entry.split(",");
    if (version !== "v1" || !mac) return false;
    const got = Buffer.from(mac, "base64");
    return got.length === expectedMac.length && timingSafeEqual(got, expectedMac);
  });
  return spec && standard;
}

const secret = formatSigningSecret(Buffer.alloc(32, 7));

describe("Standard Webhooks signature", () => {
  it("matches the published test vector", () => {
    // standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts, "sign function works".
    expect(
      standardSignature(
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "msg_p5jXN8AQM9LWM0D4loKWxJek",
        1614265330,
        Buffer.from('{"test": 2432232314}', "utf8"),
      ),
    ).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });
});

describe("X-Service-Signature", () => {
  it("is sha256= and the lowercase hex HMAC of the raw body under the secret text", () => {
    const body = Buffer.from('{"event":"claimed"}', "utf8");
    const value = serviceSignature("whsec_abc", body);
    expect(value).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(value).toBe(`sha256=${createHmac("sha256", "whsec_abc").update(body).digest("hex")}`);
  });
});

describe("signatureHeaders", () => {
  it("carries the id, the attempt's whole-second timestamp and one value per header", () => {
    const body = Buffer.from("{}", "utf8");
    const headers = signatureHeaders({
      webhookId: "msg_1",
      attemptedAt: new Date("2026-03-02T10:00:00.999Z"),
      body,
      secrets: [secret],
    });
    expect(headers["webhook-id"]).toBe("msg_1");
    expect(headers["webhook-timestamp"]).toBe(String(Date.parse("2026-03-02T10:00:00Z") / 1000));
    expect(headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(headers["x-service-signature"].split(",")).toHaveLength(1);
    expect(receiverAccepts(secret, body, { ...headers })).toBe(true);
  });

  it("signs with both secrets during a rotation, so a receiver holding either accepts", () => {
    const previous = formatSigningSecret(Buffer.alloc(32, 1));
    const current = formatSigningSecret(Buffer.alloc(32, 2));
    const body = Buffer.from('{"event":"started"}', "utf8");
    const headers = {
      ...signatureHeaders({
        webhookId: "msg_2",
        attemptedAt: new Date(),
        body,
        secrets: [current, previous],
      }),
    };
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(headers["x-service-signature"].split(", ")).toHaveLength(2);
    expect(receiverAccepts(current, body, headers)).toBe(true);
    expect(receiverAccepts(previous, body, headers)).toBe(true);
    expect(receiverAccepts(formatSigningSecret(Buffer.alloc(32, 3)), body, headers)).toBe(false);
  });

  it("refuses to sign without a secret", () => {
    expect(() =>
      signatureHeaders({ webhookId: "msg_3", attemptedAt: new Date(), body: Buffer.alloc(0), secrets: [] }),
    ).toThrow(/at least one signing secret/);
  });

  it("W1: every payload verifies independently and every one-byte mutation fails", () => {
    const payloads = fc.oneof(
      fc.json().map((text) => Buffer.from(text, "utf8")),
      fc
        .string({ unit: "grapheme", maxLength: 2_000 })
        .map((text) => Buffer.from(JSON.stringify({ text: `${text}\u2028` }))),
      fc.uint8Array({ minLength: 1, maxLength: 64 * 1024 }).map((bytes) => Buffer.from(bytes)),
    );
    fc.assert(
      fc.property(payloads, fc.nat(), fc.nat(255), (body, position, flip) => {
        if (body.length === 0) return;
        const headers = {
          ...signatureHeaders({ webhookId: "msg_w1", attemptedAt: new Date(), body, secrets: [secret] }),
        };
        expect(receiverAccepts(secret, body, headers)).toBe(true);
        const mutated = Buffer.from(body);
        const index = position % mutated.length;
        mutated[index] = mutated[index]! ^ ((flip % 255) + 1);
        expect(receiverAccepts(secret, mutated, headers)).toBe(false);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe("formatSigningSecret", () => {
  it("is whsec_ and the base64 of 24 to 64 random bytes", () => {
    expect(formatSigningSecret(Buffer.alloc(32, 255))).toBe(
      `${SIGNING_SECRET_PREFIX}${Buffer.alloc(32, 255).toString("base64")}`,
    );
    expect(() => formatSigningSecret(Buffer.alloc(16))).toThrow(RangeError);
  });
});
