import { expect, it } from "vitest";
import { describeOnRealServices } from "../support/real-services.js";
import { NOT_PAUSED } from "../support/real-webhooks.js";
import { bodyOf } from "../support/requests.js";

describeOnRealServices(
  "the webhook signing secret and settings on the real services",
  { start: "2026-03-02T10:00:15.000Z", source: "198.51.100.185" },
  ({ call, clock }) => {
    it("POST /webhooks/secret shows it once (201, no-store); asking again is 409 webhook_secret_already_revealed", async () => {
      const now = clock.now().toISOString();
      const created = await call("POST", "/webhooks/secret");
      expect(created.status).toBe(201);
      expect(created.headers.get("cache-control")).toBe("no-store");
      const secret = await bodyOf(created);
      expect(secret).toEqual({
        secret_id: expect.stringMatching(/^whs_/),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
        created_at: now,
        revealed: true,
        previous_valid_until: null,
      });

      const again = await call("POST", "/webhooks/secret");
      expect(again.status).toBe(409);
      expect(await bodyOf(again)).toEqual({
        error: {
          code: "webhook_secret_already_revealed",
          message: expect.any(String),
          details: { secret_id: secret.secret_id },
        },
      });
    });

    it("POST /webhooks/secret/rotate shows a new secret once and when the previous one stops signing", async () => {
      const first = await bodyOf(await call("POST", "/webhooks/secret"));
      await clock.advance(60_000);
      const rotated = await call("POST", "/webhooks/secret/rotate");
      expect(rotated.status).toBe(200);
      expect(rotated.headers.get("cache-control")).toBe("no-store");
      const body = await bodyOf(rotated);
      expect(body).toEqual({
        secret_id: expect.stringMatching(/^whs_/),
        secret: expect.stringMatching(/^whsec_/),
        created_at: clock.now().toISOString(),
        revealed: true,
        previous_valid_until: expect.any(String),
      });
      expect(body.secret_id).not.toBe(first.secret_id);
      expect(body.secret).not.toBe(first.secret);
      expect(Date.parse(body.previous_valid_until)).toBeGreaterThan(clock.now().getTime());
    });

    it("GET /webhooks/settings shows the secret's metadata and never the secret", async () => {
      const before = await call("GET", "/webhooks/settings");
      expect(before.status).toBe(200);
      expect(await bodyOf(before)).toEqual({
        ...NOT_PAUSED,
        signing_secret: null,
      });

      const now = clock.now().toISOString();
      const { secret, secret_id } = await bodyOf(await call("POST", "/webhooks/secret/rotate"));
      const after = await call("GET", "/webhooks/settings");
      const text = await after.text();
      expect(text).not.toContain(secret);
      expect(JSON.parse(text).signing_secret).toEqual({
        secret_id,
        created_at: now,
        revealed: true,
        previous_valid_until: null,
      });
    });

    it("POST /webhooks/resume without a pause resumes nothing, and is idempotent", async () => {
      for (let i = 0; i < 2; i += 1) {
        const resumed = await call("POST", "/webhooks/resume");
        expect(resumed.status).toBe(200);
        expect(await bodyOf(resumed)).toEqual({
          ...NOT_PAUSED,
          signing_secret: null,
          resumed_deliveries: 0,
        });
      }
    });
  },
);
