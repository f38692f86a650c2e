import { describe, expect, it } from "vitest";
import { describeOnRealServices } from "../support/real-services.js";
import { bodyOf, from } from "../support/requests.js";

const SOURCE = "198.51.100.62";
const SUMMARY_KEYS = ["id", "name", "description", "category", "bsl_level", "estimated_cost_range"];

describeOnRealServices(
  "template routes on the real experiments service",
  { start: "2026-03-02T10:00:00.000Z", source: SOURCE },
  ({ call, petri }) => {
    const list = async (query = "") => {
      const response = await call("GET", `/templates${query}`);
      expect(response.status).toBe(200);
      return (await bodyOf(response)).templates as Array<Record<string, unknown>>;
    };

    describe("GET /templates", () => {
      it("lists the catalogue's summaries, each with the documented keys in order", async () => {
        const templates = await list();
        expect(templates.length).toBeGreaterThan(1);
        for (const template of templates) expect(Object.keys(template)).toEqual(SUMMARY_KEYS);
        expect(new Set(templates.map((template) => template.id)).size).toBe(templates.length);
      });

      it("passes the filters on: a category and a BSL level in either spelling narrow the list", async () => {
        const all = await list();
        const category = all[0]!.category as string;
        const inCategory = await list(`?category=${category}`);
        expect(inCategory.length).toBeGreaterThan(0);
        expect(inCategory.every((template) => template.category === category)).toBe(true);
        expect(inCategory.length).toBe(all.filter((template) => template.category === category).length);

        const bsl2 = await list("?bsl_level=BSL2");
        expect(bsl2.every((template) => template.bsl_level === "BSL-2")).toBe(true);
        expect(bsl2).toEqual(await list("?bsl_level=BSL-2"));
        expect(bsl2.length).toBe(all.filter((template) => template.bsl_level === "BSL-2").length);
      });

      it("bounds the query values (422 validation_failed)", async () => {
        const long = await call("GET", `/templates?category=${"x".repeat(65)}`);
        expect(long.status).toBe(422);
        expect((await bodyOf(long)).error.code).toBe("validation_failed");
        expect((await call("GET", "/templates?bsl_level=")).status).toBe(422);
      });
    });

    describe("GET /templates/{template_id}", () => {
      it("gives the full record of a listed template; an unknown id is 404 not_found", async () => {
        const [first] = await list();
        const response = await call("GET", `/templates/${first!.id as string}`);
        expect(response.status).toBe(200);
        const record = await bodyOf(response);
        // The summary's cost range is the list's own; the record has the template's cost fields.
        const { estimated_cost_range: _range, ...summary } = first!;
        expect(record).toMatchObject(summary);
        expect(Array.isArray(record.parameters)).toBe(true);

        const missing = await call("GET", "/templates/nope-v9");
        expect(missing.status).toBe(404);
        expect((await bodyOf(missing)).error.code).toBe("not_found");
      });
    });

    it("is readable by requesters and staff, not without credentials", async () => {
      expect((await call("GET", "/templates")).status).toBe(200);
      const staff = await petri().app.request(
        "/templates",
        { headers: { authorization: `Bearer ${await petri().staffToken()}` } },
        from(SOURCE),
      );
      expect(staff.status).toBe(200);
      const anonymous = await call("GET", "/templates", undefined, null);
      expect(anonymous.status).toBe(401);
    });
  },
);
