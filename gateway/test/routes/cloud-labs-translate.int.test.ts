import type { InterpretIntakeResponse } from "@petri/contracts/cloudlabs";
import { validRequests } from "@petri/fixtures";
import { expect, it } from "vitest";
import type { ServiceClients } from "../../src/lib/clients.js";
import { describeOnRealServices, eventually } from "../support/real-services.js";
import { bodyOf } from "../support/requests.js";

/** The fields of the cloudlabs answers these tests change. */
interface CloudLabsAnswer {
  interpretation?: InterpretIntakeResponse["interpretation"];
  interpretationJson?: string;
}

/**
 * How the gateway gets the cloudlabs service's answers: as sent; without the typed
 * interpretation, as from a service built before D355; or with its JSON text emptied, as from
 * a service that no longer writes it (the gateway must read the typed field).
 */
type Forms = "as sent" | "text only" | "typed only";
const cloudlabs = { forms: "as sent" as Forms };

function inForms(answer: CloudLabsAnswer, forms: Forms): CloudLabsAnswer {
  if (forms === "as sent") return answer;
  const copy = structuredClone(answer);
  if (forms === "text only") delete copy.interpretation;
  else if (copy.interpretationJson !== undefined) copy.interpretationJson = "";
  return copy;
}

function watchingCloudLabs(clients: ServiceClients): ServiceClients {
  const watched = new Proxy(clients.cloudlabs, {
    get(target, method) {
      const call: unknown = Reflect.get(target, method);
      if (typeof call !== "function") return call;
      return async (...args: unknown[]) =>
        inForms((await call.apply(target, args)) as CloudLabsAnswer, cloudlabs.forms);
    },
  });
  return { ...clients, cloudlabs: watched };
}

const translatePath = (experimentId: string) => `/cloud-labs/experiments/${experimentId}/translate`;

describeOnRealServices(
  "POST /cloud-labs/experiments/{id}/translate on the real services",
  { start: "2026-12-17T09:00:00.000Z", source: "198.51.100.173", clients: watchingCloudLabs },
  ({ clock, call, otherKey }) => {
    /** An experiment of `key`'s account (the caller's by default), submitted or a draft. */
    async function experimentOf(key?: string, draft = false) {
      const response = await call(
        "POST",
        `/experiments${draft ? "?draft=true" : ""}`,
        validRequests.MIC_MBC_ASSAY,
        key,
      );
      expect(response.status).toBe(201);
      return (await bodyOf(response)).experiment_id as string;
    }
    /** The translate answer once cloud labs has heard of the experiment (its view comes by event). */
    const translated = (experimentId: string, providerId: string, key?: string) =>
      eventually(async () => {
        const answer = await call("POST", translatePath(experimentId), { provider_id: providerId }, key);
        return answer.status === 404 ? undefined : answer;
      }, `cloud labs' view of ${experimentId}`);

    it("translates the caller's experiment into a pending submission it can read back", async () => {
      const experimentId = await experimentOf();
      const now = clock.now().toISOString();
      const response = await translated(experimentId, "petri-microbiology-sandbox");
      expect(response.status).toBe(201);
      const body = await bodyOf(response);
      expect(response.headers.get("location")).toBe(`/cloud-labs/submissions/${body.submission.id}`);
      expect(body).toMatchObject({
        provider_id: "petri-microbiology-sandbox",
        estimated_cost_usd: expect.any(Number),
        submission: { experiment_id: experimentId, status: "pending", created_at: now },
      });
      expect(body.estimated_cost_usd).toBeGreaterThan(0);
      const read = await call("GET", `/cloud-labs/submissions/${body.submission.id}`);
      expect(read.status).toBe(200);
      expect(await bodyOf(read)).toMatchObject({ id: body.submission.id, experiment_id: experimentId });
      // Another account does not see the submission.
      expect(
        (await call("GET", `/cloud-labs/submissions/${body.submission.id}`, undefined, otherKey())).status,
      ).toBe(404);
    });

    it("relays the service's 404 for another account's experiment and 422 for a draft", async () => {
      const theirs = await experimentOf(otherKey());
      // Once their own translate succeeds, cloud labs knows the experiment: the 404 below is ownership.
      const own = await translated(theirs, "petri-sll-sandbox", otherKey());
      expect(own.status).toBe(201);
      const hidden = await call("POST", translatePath(theirs), { provider_id: "petri-sll-sandbox" });
      expect(hidden.status).toBe(404);
      expect((await bodyOf(hidden)).error).toMatchObject({ code: "not_found" });

      const draftId = await experimentOf(undefined, true);
      const draft = await translated(draftId, "petri-sll-sandbox");
      expect(draft.status).toBe(422);
      expect((await bodyOf(draft)).error.details).toEqual({
        errors: [expect.objectContaining({ field: "experiment_id", code: "invalid_value" })],
      });
    });

    /** The answer to a call in each of the forms a service may send. */
    async function inEachForm(method: "GET" | "POST", path: string, body?: unknown) {
      const texts: Partial<Record<Forms, string>> = {};
      try {
        for (const forms of ["as sent", "text only", "typed only"] as const) {
          cloudlabs.forms = forms;
          const response = await call(method, path, body);
          expect(response.status, `${path} ${forms}`).toBeLessThan(300);
          texts[forms] = await response.text();
        }
      } finally {
        cloudlabs.forms = "as sent";
      }
      return texts as Record<Forms, string>;
    }

    it("interpret: the typed interpretation wins and writes the JSON text's REST (D355)", async () => {
      const interpreted = await inEachForm("POST", "/cloud-labs/interpret", {
        intake: validRequests.MIC_MBC_ASSAY,
      });
      expect(JSON.parse(interpreted["text only"]).interpretation).toMatchObject({
        experiment_type: "MIC_MBC_ASSAY",
      });
      expect(interpreted["as sent"]).toBe(interpreted["text only"]);
      expect(interpreted["typed only"]).toBe(interpreted["text only"]);
    });
  },
);
