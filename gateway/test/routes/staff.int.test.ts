import { beforeAll, describe, expect, it } from "vitest";
import { type SignedUp, realServicesAvailable, realServicesOfBlock } from "../support/real-services.js";
import { bodyOf, from, json } from "../support/requests.js";

const SOURCE = "198.51.100.60";

describe.skipIf(!(await realServicesAvailable()))("the staff account routes on the real services", () => {
  let requester: SignedUp | undefined;
  const { running, call } = realServicesOfBlock({
    source: SOURCE,
    key: () => requester!.apiKey,
    prepare: async (petri) => {
      requester = await petri.signUp();
    },
  });
  const asStaff = async (method: string, path: string, body?: unknown) =>
    call(method, path, body, null, { authorization: `Bearer ${await running().staffToken()}` });
  const patch = (accountId: string, body: unknown) => asStaff("PATCH", `/admin/accounts/${accountId}`, body);
  const account = async (accountId: string) =>
    (await bodyOf(await asStaff("GET", `/admin/accounts/${accountId}`))).account;
  const tokenOf = async ({ email, password }: SignedUp) =>
    (await bodyOf(await running().app.request("/auth/token", json({ email, password }), from(SOURCE))))
      .access_token as string;
  const kidOf = (token: string) =>
    JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString()).kid as string;

  describe("PATCH /admin/accounts/{account_id}", () => {
    it("changes role and tier for staff", async () => {
      const { accountId } = await running().signUp();
      const response = await patch(accountId, { role: "operator", tier: "ai_agent" });
      expect(response.status).toBe(200);
      expect((await bodyOf(response)).account).toMatchObject({
        id: accountId,
        role: "operator",
        tier: "ai_agent",
      });
      expect(await account(accountId)).toMatchObject({ id: accountId, role: "operator", tier: "ai_agent" });
    });

    it("is 403 for a requester, before the body is even validated", async () => {
      for (const body of [{ role: "staff" }, { nonsense: true }]) {
        const response = await call("PATCH", `/admin/accounts/${requester!.accountId}`, body);
        expect(response.status).toBe(403);
        expect((await bodyOf(response)).error).toMatchObject({
          code: "forbidden",
          details: { required_roles: ["staff"] },
        });
      }
      expect(await account(requester!.accountId)).toMatchObject({ role: "requester", tier: "standard" });
    });

    it("validates the body: something to change, known values, no unknown fields", async () => {
      for (const body of [{}, { role: "system" }, { tier: "gold" }, { role: "staff", email: "x@y.z" }]) {
        expect((await patch(requester!.accountId, body)).status, JSON.stringify(body)).toBe(422);
      }
      expect(await account(requester!.accountId)).toMatchObject({ role: "requester", tier: "standard" });
    });

    it("is 404 for an unknown account", async () => {
      const response = await patch("usr_nobody", { tier: "pro" });
      expect(response.status).toBe(404);
      expect((await bodyOf(response)).error.code).toBe("not_found");
    });
  });

  describe("POST /admin/signing-keys/rotate", () => {
    it("rotates, and tokens signed with the new key verify at once, as do the old key's", async () => {
      const before = await tokenOf(requester!);
      const me = (token: string) =>
        call("GET", "/auth/me", undefined, null, { authorization: `Bearer ${token}` });
      expect((await me(before)).status).toBe(200);

      const response = await asStaff("POST", "/admin/signing-keys/rotate");
      expect(response.status).toBe(200);
      const { active_kid } = await bodyOf(response);
      expect(active_kid).not.toBe(kidOf(before));

      const after = await tokenOf(requester!);
      expect(kidOf(after)).toBe(active_kid);
      expect((await me(after)).status).toBe(200);
      expect((await me(before)).status).toBe(200);
    });
  });

  describe("the /staff paths, deprecated aliases of /admin", () => {
    it("PATCH /staff/accounts/{id} and POST /staff/signing-keys/rotate still work", async () => {
      const { accountId } = await running().signUp();
      const patched = await asStaff("PATCH", `/staff/accounts/${accountId}`, { tier: "pro" });
      expect(patched.status).toBe(200);
      expect((await bodyOf(patched)).account.tier).toBe("pro");
      expect((await account(accountId)).tier).toBe("pro");

      const first = (await bodyOf(await asStaff("POST", "/staff/signing-keys/rotate"))).active_kid;
      const rotated = await asStaff("POST", "/staff/signing-keys/rotate");
      expect(rotated.status).toBe(200);
      expect((await bodyOf(rotated)).active_kid).not.toBe(first);
    });
  });

  describe("the custom tier", () => {
    const custom = { tier: "custom", rate_limits: { per_minute: 3, per_day: 4 } };

    it("sets an account's own limits, which staff see and the account's requests are limited by", async () => {
      // A registration's own key: no request of the account's has counted yet.
      const registered = await bodyOf(
        await running().app.request(
          "/auth/register",
          json({ email: "custom@example.org", password: "long enough password", name: "Ada" }),
          from(SOURCE),
        ),
      );
      const { id: accountId } = registered.account;
      const apiKey = registered.api_key_secret as string;
      const response = await patch(accountId, custom);
      expect(response.status).toBe(200);
      expect((await bodyOf(response)).account).toMatchObject({
        id: accountId,
        tier: "custom",
        rate_limits: { per_minute: 3, per_day: 4 },
      });
      expect((await account(accountId)).rate_limits).toEqual({ per_minute: 3, per_day: 4 });

      const me = () => call("GET", "/auth/me", undefined, apiKey);
      const first = await me();
      expect(first.status).toBe(200);
      expect(first.headers.get("x-ratelimit-limit")).toBe("3");
      // The account's own view: its tier and limits, as for any tier.
      const body = await bodyOf(first);
      expect(body.account.tier).toBe("custom");
      expect(body.account.rate_limits).toBeUndefined();
      expect(body.limits).toEqual({ requests_per_minute: 3, requests_per_day: 4 });
      expect((await me()).status).toBe(200);
      expect((await me()).status).toBe(200);
      const refused = await me();
      expect(refused.status).toBe(429);
      expect((await bodyOf(refused)).error.code).toBe("rate_limit_exceeded");
    });

    it("another tier clears the limits, and they appear only with the custom tier", async () => {
      const { accountId } = await running().signUp();
      expect((await patch(accountId, custom)).status).toBe(200);
      const response = await patch(accountId, { tier: "pro" });
      expect(response.status).toBe(200);
      const changed = (await bodyOf(response)).account;
      expect(changed.tier).toBe("pro");
      expect(changed).not.toHaveProperty("rate_limits");
      expect(await account(accountId)).not.toHaveProperty("rate_limits");
    });

    describe("refuses rate_limits without the custom tier and the custom tier without them, naming the field", () => {
      let accountId: string;
      beforeAll(async () => {
        ({ accountId } = await running().signUp());
      });
      const customWith = (rate_limits: Record<string, number>) => ({ tier: "custom", rate_limits });

      it.each<[unknown, string, string]>([
        [{ tier: "custom" }, "rate_limits", "missing_required"],
        [{ tier: "pro", rate_limits: { per_minute: 3, per_day: 4 } }, "rate_limits", "invalid_value"],
        [{ role: "operator", rate_limits: { per_minute: 3, per_day: 4 } }, "rate_limits", "invalid_value"],
        [customWith({ per_minute: 0, per_day: 4 }), "rate_limits.per_minute", "invalid_value"],
        [
          customWith({ per_minute: 1_000_001, per_day: 2_000_000 }),
          "rate_limits.per_minute",
          "invalid_value",
        ],
        [customWith({ per_minute: 1.5, per_day: 4 }), "rate_limits.per_minute", "invalid_value"],
        [customWith({ per_minute: 10, per_day: 9 }), "rate_limits.per_day", "invalid_value"],
        [customWith({ per_minute: 10, per_day: 1_000_000_001 }), "rate_limits.per_day", "invalid_value"],
        [customWith({ per_minute: 10 }), "rate_limits.per_day", "missing_required"],
        [customWith({ per_minute: 10, per_day: 20, burst: 5 }), "rate_limits.burst", "invalid_value"],
      ])("%j: 422 with %s %s, the account unchanged", async (body, field, code) => {
        const response = await patch(accountId, body);
        expect(response.status).toBe(422);
        const { error } = await bodyOf(response);
        expect(error.code).toBe("validation_failed");
        expect(error.details.errors).toContainEqual(expect.objectContaining({ field, code }));
        expect(await account(accountId)).toMatchObject({ role: "requester", tier: "standard" });
      });

      it("accepts the bounds themselves", async () => {
        const bounded = (await running().signUp()).accountId;
        expect((await patch(bounded, customWith({ per_minute: 1, per_day: 1 }))).status).toBe(200);
        const widest = { per_minute: 1_000_000, per_day: 1_000_000_000 };
        expect((await patch(bounded, customWith(widest))).status).toBe(200);
        expect((await account(bounded)).rate_limits).toEqual(widest);
      });
    });

    it("GET /admin/accounts/{id} is for staff only, and 404 for an unknown account", async () => {
      const forbidden = await call("GET", `/admin/accounts/${requester!.accountId}`);
      expect(forbidden.status).toBe(403);
      expect((await bodyOf(forbidden)).error.details).toEqual({ required_roles: ["staff"] });
      const seen = await asStaff("GET", `/admin/accounts/${requester!.accountId}`);
      expect(seen.status).toBe(200);
      expect((await bodyOf(seen)).account).not.toHaveProperty("rate_limits");
      expect((await asStaff("GET", "/admin/accounts/usr_nobody")).status).toBe(404);
    });
  });
});
