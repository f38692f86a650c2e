import { describe, expect, it } from "vitest";
import { describeOnRealServices } from "../support/real-services.js";
import { bodyOf } from "../support/requests.js";

const ENGINE_SAVE = {
  title: "Drug X lowers GENE1",
  statement: "Drug X at 10 uM lowers GENE1 expression in HeLa cells within 24 h.",
  null_hypothesis: "Drug X does not change GENE1 expression.",
  experiment_type: "QPCR_EXPRESSION",
  intake_draft: { experiment_type: "QPCR_EXPRESSION", budget_usd: 900 },
  engine_agent: "hypothesis_generation",
  engine_query: "what lowers GENE1?",
  engine_response: { sources: [{ title: "Paper", doi: "10.1/x" }] },
};

describeOnRealServices(
  "hypotheses routes on the real hypotheses service",
  { start: "2026-12-15T09:00:00.000Z", source: "198.51.100.170" },
  ({ clock, call, otherKey }) => {
    async function saved(body: Record<string, unknown> = { title: "T", statement: "S" }) {
      const response = await call("POST", "/hypotheses", body);
      expect(response.status).toBe(201);
      return bodyOf(response);
    }
    const library = async (query = "") => bodyOf(await call("GET", `/hypotheses${query}`));

    describe("POST /hypotheses", () => {
      it("201 with the record and its Location; JSON fields come back as sent", async () => {
        const now = clock.now().toISOString();
        const response = await call("POST", "/hypotheses", ENGINE_SAVE);
        expect(response.status).toBe(201);
        const record = await bodyOf(response);
        expect(response.headers.get("location")).toBe(`/hypotheses/${record.id}`);
        expect(record).toEqual({
          id: expect.stringMatching(/^hyp_/),
          ...ENGINE_SAVE,
          status: "DRAFT",
          experiments_count: 0,
          source_experiment_id: null,
          created_at: now,
          updated_at: now,
        });
        // Fixed key order, as documented.
        expect(Object.keys(record)).toEqual([
          "id",
          "title",
          "statement",
          "null_hypothesis",
          "experiment_type",
          "status",
          "intake_draft",
          "experiments_count",
          "engine_agent",
          "engine_query",
          "engine_response",
          "source_experiment_id",
          "created_at",
          "updated_at",
        ]);
        // Stored for the caller: it reads back the same, another account does not see it.
        expect(await bodyOf(await call("GET", `/hypotheses/${record.id}`))).toEqual(record);
        expect((await call("GET", `/hypotheses/${record.id}`, undefined, otherKey())).status).toBe(404);
      });

      it("a manual entry has null where nothing was given", async () => {
        const record = await saved({ title: "T", statement: "S", null_hypothesis: null });
        expect(record).toMatchObject({
          null_hypothesis: null,
          experiment_type: null,
          intake_draft: null,
          engine_agent: null,
          engine_query: null,
          engine_response: null,
        });
        expect(await bodyOf(await call("GET", `/hypotheses/${record.id}`))).toEqual(record);
      });

      it("422 for wrong types, unknown fields and unknown experiment types; nothing is stored", async () => {
        for (const body of [
          { statement: "S" },
          { title: "T", statement: "S", experiment_type: "PCR" },
          { title: "T", statement: "S", intake_draft: [1] },
          { title: "T", statement: "S", owner: "me" },
          "[]",
        ]) {
          const response = await call("POST", "/hypotheses", body);
          expect(response.status, JSON.stringify(body)).toBe(422);
          expect((await bodyOf(response)).error.code).toBe("validation_failed");
        }
        expect((await library()).total).toBe(0);
      });

      it("the service's validation errors keep their field", async () => {
        const response = await call("POST", "/hypotheses", { title: " ", statement: "S" });
        expect(response.status).toBe(422);
        expect((await bodyOf(response)).error.details.errors).toEqual([
          { field: "title", path: "title", code: "missing_required", message: "title is required" },
        ]);
      });
    });

    describe("GET /hypotheses", () => {
      it("filters by type and search, pages, and answers {hypotheses, total, limit, offset}", async () => {
        const first = await saved({
          title: "GENE1 in E. coli",
          statement: "S",
          experiment_type: "MIC_MBC_ASSAY",
        });
        await clock.advance(1_000);
        const second = await saved({
          title: "T",
          statement: "gene1 again",
          experiment_type: "MIC_MBC_ASSAY",
        });
        await saved({ title: "GENE1 by qPCR", statement: "S", experiment_type: "QPCR_EXPRESSION" });
        await saved({ title: "Other", statement: "S", experiment_type: "MIC_MBC_ASSAY" });
        const response = await call(
          "GET",
          "/hypotheses?experiment_type=MIC_MBC_ASSAY&search=gene1&limit=5&offset=0",
        );
        expect(response.status).toBe(200);
        expect(await bodyOf(response)).toEqual({
          hypotheses: [second, first],
          total: 2,
          limit: 5,
          offset: 0,
        });
        expect(await library("?experiment_type=MIC_MBC_ASSAY&search=gene1&limit=1&offset=1")).toEqual({
          hypotheses: [first],
          total: 2,
          limit: 1,
          offset: 1,
        });

        await call("DELETE", `/hypotheses/${first.id}`);
        expect(await library("?status=ARCHIVED")).toMatchObject({
          hypotheses: [{ id: first.id, status: "ARCHIVED" }],
          total: 1,
          limit: 20,
          offset: 0,
        });
      });

      it("422 for a bad limit, offset, status or an overlong search", async () => {
        for (const query of [
          "limit=0",
          "limit=101",
          "offset=-1",
          "status=draft",
          `search=${"x".repeat(201)}`,
        ]) {
          const response = await call("GET", `/hypotheses?${query}`);
          expect(response.status, query).toBe(422);
          expect((await bodyOf(response)).error.code, query).toBe("validation_failed");
        }
      });
    });

    describe("GET, PATCH and DELETE /hypotheses/{id}", () => {
      it("reads the owner's hypothesis; another account gets 404", async () => {
        const record = await saved(ENGINE_SAVE);
        const mine = await call("GET", `/hypotheses/${record.id}`);
        expect(mine.status).toBe(200);
        expect(await bodyOf(mine)).toEqual(record);
        const theirs = await call("GET", `/hypotheses/${record.id}`, undefined, otherKey());
        expect(theirs.status).toBe(404);
        expect((await bodyOf(theirs)).error.code).toBe("not_found");
      });

      it("PATCH changes only the supplied fields and answers the record", async () => {
        const record = await saved();
        await clock.advance(60_000);
        const response = await call("PATCH", `/hypotheses/${record.id}`, { title: "Renamed" });
        expect(response.status).toBe(200);
        const updated = await bodyOf(response);
        expect(updated).toEqual({
          ...record,
          title: "Renamed",
          updated_at: new Date(Date.parse(record.updated_at) + 60_000).toISOString(),
        });
        expect(await bodyOf(await call("GET", `/hypotheses/${record.id}`))).toEqual(updated);

        expect((await call("PATCH", `/hypotheses/${record.id}`, { title: 5 })).status).toBe(422);
        expect((await call("PATCH", `/hypotheses/${record.id}`, { experiment_type: "CUSTOM" })).status).toBe(
          422,
        );
      });

      it("PATCH of a hypothesis that is no longer a DRAFT is 409 invalid_state", async () => {
        const record = await saved();
        await call("DELETE", `/hypotheses/${record.id}`);
        const response = await call("PATCH", `/hypotheses/${record.id}`, { statement: "S2" });
        expect(response.status).toBe(409);
        expect((await bodyOf(response)).error).toMatchObject({
          code: "invalid_state",
          details: { status: "ARCHIVED", allowed_from: ["DRAFT"] },
        });
      });

      it("DELETE archives and answers {id, status}", async () => {
        const record = await saved();
        const response = await call("DELETE", `/hypotheses/${record.id}`);
        expect(response.status).toBe(200);
        expect(await bodyOf(response)).toEqual({ id: record.id, status: "ARCHIVED" });
        expect((await call("DELETE", "/hypotheses/hyp_unknown")).status).toBe(404);
      });
    });
  },
);
