import { expect, it } from "vitest";
import { describeOnRealServices } from "../support/real-services.js";
import { bodyOf } from "../support/requests.js";

const PROFILE = {
  identity: { type: "academic_core", display_name: "Core Lab", region: "DE", timezone: "Europe/Berlin" },
  capabilities: { experiment_types: ["MIC_MBC_ASSAY"], equipment: ["incubator"] },
  compliance: { max_bsl: "BSL-2", institutional_approval_type: "core_facility_agreement" },
  commercial_terms: {
    pricing: { MIC_MBC_ASSAY: { min_usd: 200, typical_usd: 300, max_usd: 400 } },
    turnaround_days: { MIC_MBC_ASSAY: { standard_days: 10, expedited_days: 5 } },
  },
  availability: { current_capacity: "high", max_concurrent_jobs: 4 },
};

describeOnRealServices(
  "POST and GET /operator/profile on the real services",
  { start: "2026-03-02T10:00:00.000Z", source: "198.51.100.160" },
  ({ clock, call, account }) => {
    // Any account may declare a lab: a requester today, an operator once staff verify it.
    it("201 with the new operator record, then 200 when the profile is replaced", async () => {
      const now = clock.now().toISOString();
      const created = await call("POST", "/operator/profile", PROFILE);
      expect(created.status).toBe(201);
      expect(created.headers.get("location")).toBe("/operator/profile");
      const record = await bodyOf(created);
      expect(record).toEqual({
        operator_id: expect.stringMatching(/^op_/),
        account_id: account().accountId,
        lab_name: "Core Lab",
        status: "pending_verification",
        status_reason: null,
        // As the service stores it: what was declared, with its defaults filled in.
        profile: expect.objectContaining({
          identity: expect.objectContaining(PROFILE.identity),
          capabilities: expect.objectContaining(PROFILE.capabilities),
        }),
        verification: null,
        // No job yet: nothing on time (the marketplace's figure, passed on).
        quality: {
          on_time_rate: 0,
          rerun_rate: 0,
          dispute_rate: 0,
          average_rating: null,
          ratings_count: 0,
          total_jobs_completed: 0,
        },
        active_jobs: 0,
        created_at: now,
        updated_at: now,
      });
      expect(record.profile).toMatchObject(PROFILE);

      await clock.advance(60_000);
      const replaced = await call("POST", "/operator/profile", {
        ...PROFILE,
        identity: { ...PROFILE.identity, display_name: "Core Lab II" },
      });
      expect(replaced.status).toBe(200);
      expect(replaced.headers.get("location")).toBeNull();
      expect(await bodyOf(replaced)).toMatchObject({
        operator_id: record.operator_id,
        lab_name: "Core Lab II",
        created_at: now,
        updated_at: clock.now().toISOString(),
      });
    });

    it("the marketplace validates the profile; its errors name the path", async () => {
      const response = await call("POST", "/operator/profile", { capabilities: {} });
      expect(response.status).toBe(422);
      const { error } = await bodyOf(response);
      expect(error.code).toBe("validation_failed");
      // Every error of the body at once, each naming its path.
      expect(error.details.errors.map((e: any) => e.path)).toEqual([
        "identity",
        "capabilities.experiment_types",
        "compliance",
        "commercial_terms",
        "availability",
      ]);
      expect(error.details.errors[0]).toEqual({
        field: "identity",
        path: "identity",
        code: "missing_required",
        message: "identity is required",
      });
    });

    it("takes up to 64 KiB and refuses more with 413", async () => {
      const withTags = (count: number) => ({
        ...PROFILE,
        capabilities: {
          ...PROFILE.capabilities,
          menu_tags: Array.from({ length: count }, (_, i) => `tag-${i}-${"x".repeat(150)}`),
        },
      });
      const body = JSON.stringify(withTags(60));
      expect(body.length).toBeGreaterThan(4096);
      expect((await call("POST", "/operator/profile", body)).status).toBe(201);

      const tooLarge = JSON.stringify(withTags(450));
      expect(tooLarge.length).toBeGreaterThan(65_536);
      const refused = await call("POST", "/operator/profile", tooLarge);
      expect(refused.status).toBe(413);
      expect((await bodyOf(refused)).error).toMatchObject({
        code: "payload_too_large",
        details: { max_bytes: 65_536 },
      });
      // The refused profile did not replace the first.
      const mine = await bodyOf(await call("GET", "/operator/profile"));
      expect(mine.profile.capabilities.menu_tags).toHaveLength(60);
    });

    it("the body must be a JSON object", async () => {
      for (const body of ["[]", "42", "{"]) {
        const response = await call("POST", "/operator/profile", body);
        expect(response.status, body).toBe(422);
        expect((await bodyOf(response)).error.code, body).toBe("validation_failed");
      }
      expect((await call("GET", "/operator/profile")).status).toBe(404);
    });

    it("GET is 404 before a profile exists, the record after", async () => {
      const none = await call("GET", "/operator/profile");
      expect(none.status).toBe(404);
      expect((await bodyOf(none)).error.code).toBe("not_found");
      expect((await call("POST", "/operator/profile", PROFILE)).status).toBe(201);
      const mine = await call("GET", "/operator/profile");
      expect(mine.status).toBe(200);
      expect(await bodyOf(mine)).toMatchObject({
        account_id: account().accountId,
        status: "pending_verification",
      });
    });
  },
);
