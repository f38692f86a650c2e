/**
 * The engine routes on the real services, the result written from its typed message (D356):
 * a run's result and edit come out in PostgreSQL's jsonb key order, as their JSON text always
 * did; the synchronous answer in the order the pipeline builds it. (That the typed form says
 * the same as the text: services/engine test/result-message.int.test.ts; that it wins over the
 * text: src/routes/engine/engine.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { describeOnRealServices, eventually } from "../support/real-services.js";
import { bodyOf } from "../support/requests.js";

const QUERY = "MIC of ciprofloxacin against E. coli ATCC 25922";
const PIPELINE_KEYS = [
  "hypothesis",
  "experiment_type",
  "intake_draft",
  "reasoning_trace",
  "sources",
  "engine",
  "literature_grounded",
  "notes",
];

/** PostgreSQL's jsonb key order: shorter keys first, then by their bytes (ASCII keys here). */
const jsonbOrder = (keys: string[]) =>
  [...keys].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));

/** Every object of `value` has its keys in jsonb order. */
function inJsonbOrder(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(inJsonbOrder);
  if (value === null || typeof value !== "object") return true;
  const keys = Object.keys(value);
  return (
    JSON.stringify(keys) === JSON.stringify(jsonbOrder(keys)) && Object.values(value).every(inJsonbOrder)
  );
}

describeOnRealServices(
  "engine routes on the real services",
  { start: "2026-12-16T09:00:00.000Z", source: "198.51.100.173" },
  ({ call }) => {
    describe("a run", () => {
      it("COMPLETED: its result and then its edit, in the stored key order", async () => {
        const started = await call("POST", "/cloud-labs/engine/start", { query: QUERY });
        expect(started.status).toBe(202);
        const { run_id } = await bodyOf(started);
        const done = await eventually(async () => {
          const run = await bodyOf(await call("GET", `/cloud-labs/engine/runs/${run_id}`));
          return run.status === "COMPLETED" ? run : undefined;
        }, "the run to complete");
        expect(done.result).toMatchObject({
          experiment_type: "MIC_MBC_ASSAY",
          engine: "offline-rules@1",
          literature_grounded: false,
          intake_draft: { experiment_type: "MIC_MBC_ASSAY" },
        });
        expect(jsonbOrder(Object.keys(done.result))).toEqual(jsonbOrder(PIPELINE_KEYS));
        expect(inJsonbOrder(done.result)).toBe(true);

        const edited = await call("PATCH", `/cloud-labs/engine/runs/${run_id}/draft`, {
          edited_hypothesis: { statement: "Edited statement.", null_hypothesis: "Edited null." },
        });
        expect(edited.status).toBe(200);
        const run = await bodyOf(edited);
        expect(JSON.stringify(run.edited_hypothesis)).toBe(
          JSON.stringify({ statement: "Edited statement.", null_hypothesis: "Edited null." }),
        );
        expect(run.result).toEqual(done.result);
        expect(JSON.stringify(run.result)).toBe(JSON.stringify(done.result));
      });
    });

    describe("POST /cloud-labs/engine", () => {
      it("answers the result in the pipeline's key order", async () => {
        const response = await call("POST", "/cloud-labs/engine", { query: QUERY });
        expect(response.status).toBe(200);
        const result = await bodyOf(response);
        expect(Object.keys(result)).toEqual(PIPELINE_KEYS);
        expect(Object.keys(result.hypothesis)).toEqual(["statement", "null_hypothesis", "rationale"]);
        expect(result.intake_draft.experiment_type).toBe("MIC_MBC_ASSAY");
      });
    });
  },
);
