import type { InterpretIntakeResponse, Submission, Translation } from "@petri/contracts/cloudlabs";
import { validRequests } from "@petri/fixtures";
import { expect, it } from "vitest";
import type { ServiceClients } from "../../src/lib/clients.js";
import { describeOnRealServices, eventually } from "../support/real-services.js";
import { bodyOf } from "../support/requests.js";

/** The fields of the cloudlabs answers these tests look at. */
interface CloudLabsAnswer {
  interpretation?: InterpretIntakeResponse["interpretation"];
  interpretationJson?: string;
  translation?: Translation;
  submission?: Submission;
  submissions?: Submission[];
}

/**
 * What the cloudlabs service last answered the gateway, and how the gateway gets it: as sent;
 * without its typed fields, as from a service built before D-NEW-1; or with its JSON texts
 * emptied, as from a service that no longer writes them (the gateway must read the typed fields).
 */
type Forms = "as sent" | "text only" | "typed only";
const cloudlabs = { last: undefined as CloudLabsAnswer | undefined, forms: "as sent" as Forms };

function inForms(answer: CloudLabsAnswer, forms: Forms): CloudLabsAnswer {
  if (forms === "as sent") return answer;
  const copy = structuredClone(answer);
  const translation: Partial<Translation> | undefined = copy.translation;
  const submissions = [copy.submission, ...(copy.submissions ?? [])].filter(
    (s): s is Submission => s !== undefined,
  ) as Partial<Submission>[];
  if (forms === "text only") {
    delete copy.interpretation;
    if (translation) delete translation.protocol;
    for (const submission of submissions) {
      delete submission.translatedProtocol;
      delete submission.results;
    }
    return copy;
  }
  if (copy.interpretationJson !== undefined) copy.interpretationJson = "";
  if (translation) translation.protocolJson = "";
  for (const submission of submissions) {
    submission.translatedProtocolJson = "";
    submission.resultsJson = "";
  }
  return copy;
}

function watchingCloudLabs(clients: ServiceClients): ServiceClients {
  const watched = new Proxy(clients.cloudlabs, {
    get(target, method) {
      const call: unknown = Reflect.get(target, method);
      if (typeof call !== "function") return call;
      return async (...args: unknown[]) => {
        const answer = (await call.apply(target, args)) as CloudLabsAnswer;
        cloudlabs.last = answer;
        return inForms(answer, cloudlabs.forms);
      };
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

    it("interpret and translate: the typed forms win and write the JSON text's REST (D-NEW-1)", async () => {
      const interpreted = await inEachForm("POST", "/cloud-labs/interpret", {
        intake: validRequests.MIC_MBC_ASSAY,
      });
      expect(JSON.parse(interpreted["text only"]).interpretation).toMatchObject({
        experiment_type: "MIC_MBC_ASSAY",
      });
      expect(interpreted["as sent"]).toBe(interpreted["text only"]);
      expect(interpreted["typed only"]).toBe(interpreted["text only"]);

      for (const providerId of ["petri-autoprotocol-sandbox", "petri-sll-sandbox"]) {
        const body = { intake: validRequests.MIC_MBC_ASSAY, provider_id: providerId };
        const translated = await inEachForm("POST", "/cloud-labs/translate", body);
        expect(JSON.parse(translated["text only"]).protocol_format, providerId).toMatch(
          /^(autoprotocol|sll)$/,
        );
        expect(translated["as sent"], providerId).toBe(translated["text only"]);
        expect(translated["typed only"], providerId).toBe(translated["text only"]);
      }
    });

    it("a submission's protocol: the Struct wins and writes the JSON text's REST (D-NEW-1)", async () => {
      const experimentId = await experimentOf();
      const response = await translated(experimentId, "petri-autoprotocol-sandbox");
      expect(response.status).toBe(201);
      const created = await bodyOf(response);
      const answer = cloudlabs.last;
      expect(answer?.submission?.translatedProtocol).toBeDefined();
      expect(JSON.stringify(created.submission.translated_protocol)).toBe(
        answer?.submission?.translatedProtocolJson,
      );
      for (const path of [
        `/cloud-labs/submissions/${created.submission.id}`,
        `/cloud-labs/submissions?experiment_id=${experimentId}`,
      ]) {
        // The worker may move the submission on between the calls: compare the documents only.
        const read = await inEachForm("GET", path);
        const documents = (text: string) => {
          const body = JSON.parse(text) as { submissions?: unknown[] };
          const submissions = (body.submissions ?? [body]) as {
            translated_protocol: unknown;
            results: unknown;
          }[];
          return JSON.stringify(submissions.map((s) => [s.translated_protocol, s.results]));
        };
        expect(documents(read["text only"])).toContain(
          JSON.stringify(created.submission.translated_protocol),
        );
        expect(documents(read["as sent"]), path).toBe(documents(read["text only"]));
        expect(documents(read["typed only"]), path).toBe(documents(read["text only"]));
      }
    });
  },
);
