import { validRequests } from "@petri/fixtures";
import { describe, expect, it } from "vitest";
import { describeWithSharedAccounts } from "../support/real-services-shared.js";
import { bodyOf, from } from "../support/requests.js";

const SOURCE = "198.51.100.60";
/** A MIC request in the service's canonical form (the budget where intake stores it). */
const { constraints: _constraints, ...MIC } = validRequests.MIC_MBC_ASSAY;
const REQUEST = { ...MIC, turnaround_budget: { budget_max_usd: 300 } };

describeWithSharedAccounts(
  "POST /experiments on the real services",
  { start: "2026-03-02T10:00:00.000Z", source: SOURCE },
  ({ call, clock, account, petri }) => {
    /** How many experiments (drafts included) the shared account has. */
    const owned = async () =>
      (await bodyOf(await call("GET", "/experiments?include_total=true"))).pagination.total as number;

    describe("POST /experiments", () => {
      it("201 with the submission in USD, links, warnings and Location; GET gives back the request as sent", async () => {
        const response = await call("POST", "/experiments", REQUEST);
        expect(response.status).toBe(201);
        expect(response.headers.get("idempotent-replayed")).toBeNull();
        const body = await bodyOf(response);
        const id = body.experiment_id;
        expect(body).toEqual({
          experiment_id: expect.stringMatching(/^exp_/),
          status: "open",
          created_at: clock.now().toISOString(),
          estimated_cost_usd: expect.any(Number),
          estimated_turnaround_days: expect.any(Number),
          links: {
            self: `/experiments/${id}`,
            results: `/experiments/${id}/results`,
            cancel: `/experiments/${id}`,
          },
          warnings: expect.any(Array),
        });
        expect(Object.keys(body)).toEqual([
          "experiment_id",
          "status",
          "created_at",
          "estimated_cost_usd",
          "estimated_turnaround_days",
          "links",
          "warnings",
        ]);
        for (const warning of body.warnings)
          expect(Object.keys(warning).sort()).toEqual(["code", "message", "path", "suggestion"]);
        expect(response.headers.get("location")).toBe(body.links.self);
        const stored = await bodyOf(await call("GET", body.links.self));
        expect(stored).toMatchObject({
          experiment_id: id,
          status: "open",
          requester_account_id: account().accountId,
          title: validRequests.MIC_MBC_ASSAY.title,
          created_at: body.created_at,
          hold_amount_usd: body.estimated_cost_usd,
        });
        // Stored as sent, with intake's defaults added (D348).
        expect(stored.request).toMatchObject(REQUEST);
        expect(stored.estimate.estimated_cost_usd.typical).toBe(body.estimated_cost_usd);
        expect(stored.estimate.estimated_turnaround_days.standard).toBe(body.estimated_turnaround_days);
      });

      it("?draft=true saves a draft; other values of draft are 422 and nothing is created", async () => {
        const before = await owned();
        const draft = await call("POST", "/experiments?draft=true", { title: "half done" });
        expect(draft.status).toBe(201);
        const saved = await bodyOf(draft);
        expect(saved.status).toBe("draft");
        expect((await bodyOf(await call("GET", saved.links.self))).request).toMatchObject({
          title: "half done",
        });
        const invalid = await call("POST", "/experiments?draft=yes", { title: "half done" });
        expect(invalid.status).toBe(422);
        expect((await bodyOf(invalid)).error.details.errors).toEqual([
          expect.objectContaining({ field: "draft", path: "draft", code: "invalid_value" }),
        ]);
        expect(await owned()).toBe(before + 1);
      });

      it("replays the first answer byte for byte with Idempotent-Replayed: true; a reused key is 422", async () => {
        const before = await owned();
        const headers = { "idempotency-key": "order-42" };
        const first = await call("POST", "/experiments", REQUEST, undefined, headers);
        const firstText = await first.text();
        await clock.advance(60_000);
        const again = await call("POST", "/experiments", REQUEST, undefined, headers);
        expect(again.status).toBe(first.status);
        expect(await again.text()).toBe(firstText);
        expect(again.headers.get("idempotent-replayed")).toBe("true");
        expect(again.headers.get("location")).toBe(first.headers.get("location"));
        expect(await owned()).toBe(before + 1);

        const other = { ...REQUEST, title: "Another title here" };
        const reused = await call("POST", "/experiments", other, undefined, headers);
        expect(reused.status).toBe(422);
        expect((await bodyOf(reused)).error.code).toBe("idempotency_key_reused");
        expect(await owned()).toBe(before + 1);
      });

      it.each([["x".repeat(256)], ["caf\u00e9"], [""]])(
        "Idempotency-Key %j is 422 and nothing is created",
        async (key) => {
          const before = await owned();
          const response = await call("POST", "/experiments", REQUEST, undefined, { "idempotency-key": key });
          expect(response.status).toBe(422);
          expect((await bodyOf(response)).error.details.errors[0]).toMatchObject({
            path: "Idempotency-Key",
            code: "invalid_value",
          });
          expect(await owned()).toBe(before);
        },
      );

      it("422 validation_failed carries the service's errors with their request paths", async () => {
        const before = await owned();
        const response = await call("POST", "/experiments", { ...REQUEST, hypothesis: {} });
        expect(response.status).toBe(422);
        const { error } = await bodyOf(response);
        expect(Object.keys(error)).toEqual(["code", "message", "details"]);
        expect(error.code).toBe("validation_failed");
        expect(error.details.errors).toContainEqual({
          field: "hypothesis.statement",
          path: "hypothesis.statement",
          code: "missing_required",
          message: expect.any(String),
        });
        for (const each of error.details.errors) expect(each.field).toBe(each.path);
        expect(await owned()).toBe(before);
      });

      it("403 safety_rejected carries details.safety_flags and the findings' paths", async () => {
        const before = await owned();
        const bsl3 = await call("POST", "/experiments", { ...REQUEST, compliance: { bsl: "BSL-3" } });
        expect(bsl3.status).toBe(403);
        const { error } = await bodyOf(bsl3);
        expect(error.code).toBe("safety_rejected");
        expect(error.details.safety_flags).toEqual(["bsl_level_exceeded", "safety_rejected"]);

        const controlled = {
          ...REQUEST,
          mic_mbc: { ...(validRequests.MIC_MBC_ASSAY.mic_mbc as object), compound_name: "Sarin" },
        };
        const flagged = await bodyOf(await call("POST", "/experiments", controlled));
        expect(flagged.error.code).toBe("safety_rejected");
        expect(flagged.error.details.safety_flags).toEqual(["controlled_substance", "safety_rejected"]);
        expect(flagged.error.details.findings[0].path).toBe("mic_mbc.compound_name");
        expect(await owned()).toBe(before);
      });

      it("the body must be a JSON object of at most the size limit; JSON only", async () => {
        const before = await owned();
        for (const body of ["[1,2]", '"text"', "null", "{oops"]) {
          const response = await call("POST", "/experiments", body);
          expect(response.status, body).toBe(422);
          expect((await bodyOf(response)).error.code).toBe("validation_failed");
        }
        const big = await call("POST", "/experiments", { ...REQUEST, notes: "x".repeat(1_100_000) });
        expect(big.status).toBe(413);
        expect((await bodyOf(big)).error.code).toBe("payload_too_large");
        const text = await call("POST", "/experiments", "{}", undefined, { "content-type": "text/plain" });
        expect(text.status).toBe(415);
        expect(await owned()).toBe(before);
      });

      it("needs credentials", async () => {
        const response = await call("POST", "/experiments", {}, null);
        expect(response.status).toBe(401);
        expect((await bodyOf(response)).error.code).toBe("unauthorized");
      });
    });

    describe("POST /experiments/{id}/submit", () => {
      it("moves a draft on and answers like a create (200); a second submit is 409 invalid_state", async () => {
        const draft = await bodyOf(await call("POST", "/experiments?draft=true", REQUEST));
        expect(draft.status).toBe("draft");
        await clock.advance(60_000);
        const response = await call("POST", `/experiments/${draft.experiment_id}/submit`);
        expect(response.status).toBe(200);
        const submitted = await bodyOf(response);
        expect(submitted).toMatchObject({
          experiment_id: draft.experiment_id,
          status: "open",
          links: draft.links,
          warnings: expect.any(Array),
        });
        const stored = await bodyOf(await call("GET", draft.links.self));
        expect(stored).toMatchObject({ status: "open", submitted_at: clock.now().toISOString() });
        const again = await call("POST", `/experiments/${draft.experiment_id}/submit`);
        expect(again.status).toBe(409);
        expect((await bodyOf(again)).error).toMatchObject({
          code: "invalid_state",
          details: { status: "open", allowed_from: ["draft"] },
        });
      });
    });

    describe("the OpenAPI description of the request model", () => {
      it("documents the sections, the 8 type sections and the enums, and the create's headers", async () => {
        const document = await bodyOf(await petri().app.request("/openapi.json", {}, from(SOURCE)));
        const model = document.components.schemas.ExperimentRequest;
        expect(model.required).toEqual(["experiment_type", "title", "hypothesis"]);
        expect(model.properties.experiment_type.enum).toHaveLength(8);
        expect(model.properties.privacy.enum).toEqual(["open", "delayed_6mo", "delayed_12mo", "private"]);
        expect(model.properties.turnaround_budget.properties.priority.enum).toEqual([
          "standard",
          "expedited",
          "urgent",
        ]);
        // Every spelling the service reads (BSL1, bsl-2, "BSL 1", 2), not a list of four (D350).
        const bsl = model.properties.compliance.properties.bsl as unknown as {
          anyOf: Array<{ type: string; pattern?: string }>;
        };
        const bslPattern = new RegExp(bsl.anyOf.find((schema) => schema.type === "string")!.pattern!);
        for (const spelling of ["BSL1", "BSL-1", "bsl-2", "BSL 2", "BSL_1", "2"])
          expect(spelling, spelling).toMatch(bslPattern);
        for (const spelling of ["BSL-5", "BSL", "level 2"])
          expect(spelling, spelling).not.toMatch(bslPattern);
        for (const section of [
          "sanger",
          "qpcr",
          "cell_viability",
          "enzyme_inhibition",
          "microbial_growth",
          "mic_mbc",
          "zone_of_inhibition",
          "custom_protocol",
        ]) {
          expect(model.properties[section]?.type, section).toBe("object");
        }
        const create = document.paths["/experiments"].post;
        expect(create.parameters.map((p: { name: string }) => p.name)).toEqual(["Idempotency-Key", "draft"]);
        expect(Object.keys(create.responses["201"].headers)).toEqual(
          expect.arrayContaining(["Location", "Idempotent-Replayed"]),
        );
        expect(document.components.schemas.PartialExperimentRequest.required).toBeUndefined();
      });
    });
  },
);
