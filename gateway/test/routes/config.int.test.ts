import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_OPERATIONS } from "../../src/lib/access.js";
import { type RealServices, realServicesAvailable, startRealServices } from "../support/real-services.js";
import { bodyOf, from } from "../support/requests.js";

describe.skipIf(!(await realServicesAvailable()))("GET /config on the real services", () => {
  let petri: RealServices | undefined;
  beforeAll(async () => {
    petri = await startRealServices({ gateway: { accessTokenTtlSeconds: 600, maxBodyBytes: 65_536 } });
  });
  afterAll(() => petri?.stop());

  it("is public and lists tiers, limits, auth, public routes and the enumerations, with no secret", async () => {
    const response = await petri!.app.request("/config", {}, from("198.51.100.70"));
    expect(response.status).toBe(200);
    const config = await bodyOf(response);

    expect(config.enums.experiment_types).toEqual([
      "SANGER_PLASMID_VERIFICATION",
      "QPCR_EXPRESSION",
      "CELL_VIABILITY_IC50",
      "ENZYME_INHIBITION_IC50",
      "MICROBIAL_GROWTH_MATRIX",
      "MIC_MBC_ASSAY",
      "ZONE_OF_INHIBITION",
      "CUSTOM",
    ]);
    expect(config.enums.privacy_levels).toEqual(["open", "delayed_6mo", "delayed_12mo", "private"]);
    expect(config.enums.bsl_levels).toEqual({ supported: ["BSL-1", "BSL-2"], flagged: ["BSL-3", "BSL-4"] });
    expect(config.enums.webhook_events).toEqual([
      "claimed",
      "started",
      "completed",
      "issue",
      "approved",
      "disputed",
    ]);
    expect(config.enums.dispute_reasons).toContain("protocol_not_followed");
    expect(config.enums.turnaround_priorities).toEqual(["standard", "expedited", "urgent"]);
    expect(config.enums.budget_flexibility).toEqual(["strict", "flexible_10", "flexible_25", "flexible_50"]);
    expect(config.tiers).toEqual([
      { name: "standard", requests_per_minute: 100, requests_per_day: 1_000 },
      { name: "pro", requests_per_minute: 1_000, requests_per_day: 10_000 },
      { name: "ai_agent", requests_per_minute: 500, requests_per_day: 5_000 },
    ]);
    expect(config.auth.access_token_ttl_seconds).toBe(600);
    expect(config.auth.api_key_cache_ttl_seconds).toBe(30);
    expect(config.limits).toMatchObject({
      max_body_bytes: 65_536,
      page_size_default: 20,
      page_size_max: 100,
    });
    expect(config.limits.max_body_bytes_by_operation).toEqual({
      "POST /operator/jobs/{experiment_id}/submit": 41_943_040,
      "POST /operator/profile": 65_536,
    });
    expect(config.public_routes).toEqual([...PUBLIC_OPERATIONS]);
    expect(config.features).toEqual({ registration: true });

    const text = JSON.stringify(config);
    for (const secret of [
      "petri_sk_0",
      "PRIVATE KEY",
      "secret",
      "password",
      '"d":',
      "DATABASE_URL",
      "kid_",
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
