import { validRequests } from "@petri/fixtures";
import { describe, expect, it } from "vitest";
import { describeOnRealServices, eventually } from "../support/real-services.js";
import { bodyOf } from "../support/requests.js";

describeOnRealServices(
  "hypotheses <-> experiments routes on the real services",
  { start: "2026-12-16T09:00:00.000Z", source: "198.51.100.171" },
  ({ call, account, otherKey }) => {
    async function savedHypothesis() {
      const response = await call("POST", "/hypotheses", {
        title: "Compound A against E. coli",
        statement: "Compound A inhibits E. coli at 8 ug/mL or less.",
        experiment_type: "MIC_MBC_ASSAY",
        intake_draft: validRequests.MIC_MBC_ASSAY,
      });
      expect(response.status).toBe(201);
      return (await bodyOf(response)).id as string;
    }
    const experimentCount = async (key?: string) =>
      (await bodyOf(await call("GET", "/experiments?include_total=true", undefined, key))).pagination.total;

    describe("POST /hypotheses/{id}/to-experiment", () => {
      it("creates the experiment from the hypothesis and the additional fields; the hypothesis becomes USED", async () => {
        const id = await savedHypothesis();
        const response = await call(
          "POST",
          `/hypotheses/${id}/to-experiment`,
          { additional_fields: { privacy: "private" } },
          undefined,
          { "idempotency-key": "mine-1" },
        );
        expect(response.status).toBe(201);
        const body = await bodyOf(response);
        expect(response.headers.get("location")).toBe(`/experiments/${body.experiment_id}`);
        expect(body.status).toBe("open");
        const experiment = await bodyOf(await call("GET", `/experiments/${body.experiment_id}`));
        expect(experiment).toMatchObject({
          status: "open",
          experiment_type: "MIC_MBC_ASSAY",
          requester_account_id: account().accountId,
          source_hypothesis_id: id,
          request: {
            privacy: "private",
            experiment_type: "MIC_MBC_ASSAY",
            hypothesis: { statement: "Compound A inhibits E. coli at 8 ug/mL or less." },
          },
        });
        // The link is the ExperimentSubmitted consumer's work, not the route's (D334).
        const used = await eventually(async () => {
          const hypothesis = await bodyOf(await call("GET", `/hypotheses/${id}`));
          return hypothesis.status === "USED" ? hypothesis : undefined;
        }, "the hypothesis to become USED");
        expect(used.experiments_count).toBe(1);
      });

      it("a retry replays the first experiment (Idempotent-Replayed)", async () => {
        const id = await savedHypothesis();
        const first = await bodyOf(await call("POST", `/hypotheses/${id}/to-experiment`, {}));
        const again = await call("POST", `/hypotheses/${id}/to-experiment`, {});
        expect(again.status).toBe(201);
        expect(again.headers.get("idempotent-replayed")).toBe("true");
        expect((await bodyOf(again)).experiment_id).toBe(first.experiment_id);
        expect(await experimentCount()).toBe(1);
      });

      it("a hypothesis archived a moment before is 409, edited a moment before is converted as edited", async () => {
        const archivedId = await savedHypothesis();
        expect((await call("DELETE", `/hypotheses/${archivedId}`)).status).toBe(200);
        const archived = await call("POST", `/hypotheses/${archivedId}/to-experiment`, {});
        expect(archived.status).toBe(409);
        expect((await bodyOf(archived)).error).toMatchObject({
          code: "invalid_state",
          details: { status: "ARCHIVED" },
        });
        const editedId = await savedHypothesis();
        const statement = "Compound A inhibits E. coli at 4 ug/mL or less.";
        expect((await call("PATCH", `/hypotheses/${editedId}`, { statement })).status).toBe(200);
        const created = await bodyOf(await call("POST", `/hypotheses/${editedId}/to-experiment`, {}));
        const experiment = await bodyOf(await call("GET", `/experiments/${created.experiment_id}`));
        expect(experiment.request.hypothesis.statement).toBe(statement);
      });

      it("refuses a malformed Idempotency-Key and unknown body fields; no experiment is created", async () => {
        const id = await savedHypothesis();
        expect(
          (await call("POST", `/hypotheses/${id}/to-experiment`, {}, undefined, { "idempotency-key": "é" }))
            .status,
        ).toBe(422);
        expect((await call("POST", `/hypotheses/${id}/to-experiment`, { privacy: "open" })).status).toBe(422);
        expect(await experimentCount()).toBe(0);
      });
    });

    describe("POST /hypotheses/from-experiment", () => {
      /** An experiment of `key`'s account, submitted (open) or kept as a draft. */
      async function experimentOf(key: string | undefined, draft = false) {
        const response = await call(
          "POST",
          `/experiments${draft ? "?draft=true" : ""}`,
          validRequests.MIC_MBC_ASSAY,
          key,
        );
        expect(response.status, await response.clone().text()).toBe(201);
        return (await bodyOf(response)).experiment_id as string;
      }

      it("creates the caller's hypothesis from the experiment the hypotheses service knows", async () => {
        const experimentId = await experimentOf(undefined);
        // The hypotheses service learns of the experiment from ExperimentSubmitted.
        const response = await eventually(async () => {
          const answer = await call("POST", "/hypotheses/from-experiment", {
            experiment_id: experimentId,
            title: "Mine",
          });
          return answer.status === 404 ? undefined : answer;
        }, "the experiment in the hypotheses service");
        expect(response.status).toBe(201);
        const record = await bodyOf(response);
        expect(response.headers.get("location")).toBe(`/hypotheses/${record.id}`);
        expect(record).toMatchObject({
          title: "Mine",
          status: "DRAFT",
          source_experiment_id: experimentId,
          statement: (validRequests.MIC_MBC_ASSAY.hypothesis as { statement: string }).statement,
        });
        // The caller's own, and no experiment was created on the way.
        expect(await bodyOf(await call("GET", `/hypotheses/${record.id}`))).toEqual(record);
        expect(await experimentCount()).toBe(1);
      });

      it("relays the service's 404 for another account's experiment and 409 for a draft", async () => {
        const theirs = await experimentOf(otherKey());
        // Theirs is known to the hypotheses service once a hypothesis of theirs can come from it.
        await eventually(async () => {
          const answer = await call(
            "POST",
            "/hypotheses/from-experiment",
            { experiment_id: theirs },
            otherKey(),
          );
          return answer.status === 201 ? answer : undefined;
        }, "the other account's experiment in the hypotheses service");
        const hidden = await call("POST", "/hypotheses/from-experiment", { experiment_id: theirs });
        expect(hidden.status).toBe(404);
        expect((await bodyOf(hidden)).error).toMatchObject({ code: "not_found" });

        const draftId = await experimentOf(undefined, true);
        const draft = await eventually(async () => {
          const answer = await call("POST", "/hypotheses/from-experiment", { experiment_id: draftId });
          return answer.status === 404 ? undefined : answer;
        }, "the draft in the hypotheses service");
        expect(draft.status).toBe(409);
        expect((await bodyOf(draft)).error).toMatchObject({
          code: "invalid_state",
          details: { status: "draft" },
        });
      });

      it("422 for a body without experiment_id; nothing is stored", async () => {
        const response = await call("POST", "/hypotheses/from-experiment", { title: "x" });
        expect(response.status).toBe(422);
        expect((await bodyOf(await call("GET", "/hypotheses"))).total).toBe(0);
      });
    });
  },
);
