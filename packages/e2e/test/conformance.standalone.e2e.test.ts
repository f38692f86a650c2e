/**
 * The standing OpenAPI conformance suite (issue 13): every operation of gateway/openapi.json
 * against the real gateway in standalone mode. It asserts that no response is >= 500, that
 * every error is the envelope {"error":{"code","message","details"}}, that every 2xx body
 * validates against its documented schema (ajv, JSON Schema 2020-12) and every status is
 * documented, the answers to bad input (wrong types, missing fields, NUL characters, deep
 * nesting, huge strings, wrong content types, unknown and malformed ids), and the
 * authorization matrix of every operation that names an object by id. Every failure is
 * reported with its operation, case, caller, status and body excerpt; the closing summary
 * gives the totals.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Failpoints } from "@petri/service-kit";
import type { ExperimentsTarget } from "./experiments.scenarios.js";
import { type Case, fillPath, negativeCases, queryString, sampleBody } from "./support/conformance-cases.js";
import {
  type CallerName,
  labJob,
  naturalCaller,
  pathParams,
  queryFor,
  staffOnly,
  validBody,
} from "./support/conformance-plan.js";
import { type Finding, Probe } from "./support/conformance-probe.js";
import { type World, WORLD_PASSWORD, buildWorld, withDeadLetter } from "./support/conformance-world.js";
import { STAFF, startStandaloneHost } from "./support/hosts.js";
import { Contract, type Operation } from "./support/openapi-contract.js";
import { WebhookReceiver } from "./support/webhook-receiver.js";

const format = (f: Finding) =>
  `${f.operation} [${f.case}] as ${f.caller}: ${f.status} ${f.problem} :: ${f.excerpt}`;

describe("OpenAPI conformance, standalone mode", { timeout: 600_000 }, () => {
  let host: Awaited<ReturnType<typeof startStandaloneHost>>;
  let receiver: WebhookReceiver;
  let contract: Contract;
  let probe: Probe;
  let world: World;
  const failpoints = new Failpoints();

  beforeAll(async () => {
    host = await startStandaloneHost("petri-e2e-conformance", {}, { failpoints });
    receiver = await WebhookReceiver.start();
    contract = new Contract();
    probe = new Probe(contract, host.petri.url);
    const target: ExperimentsTarget = { baseUrls: [host.petri.url], staff: STAFF };
    // Every response the world's construction gets is checked too (the scenario helpers use
    // the global fetch).
    const original = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const response = await original(input, init);
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      const text = await response.clone().text();
      probe.observe(init?.method ?? "GET", url, response.status, response.headers.get("content-type"), text);
      return response;
    };
    try {
      world = await withDeadLetter(target, await buildWorld(target, receiver), failpoints);
    } finally {
      globalThis.fetch = original;
    }
  }, 300_000);

  afterAll(async () => {
    if (probe) console.log(probe.report(contract.operations.map((o) => o.operationId)));
    await probe?.close();
    await receiver?.close();
    await host?.stop();
  });

  function credentialsOf(caller: CallerName): Record<string, string> | undefined {
    return caller === "anonymous" ? undefined : world.credentials[caller];
  }

  function send(
    operation: Operation,
    caller: CallerName,
    request: {
      case: string;
      params?: Record<string, string>;
      query?: Record<string, string>;
      rawQuery?: string;
      body?: string;
      contentType?: string;
      expect?: readonly number[];
      matrix?: boolean;
    },
  ) {
    const params = request.params ?? pathParams(operation, world);
    const query = request.rawQuery ?? queryString(request.query ?? queryFor(operation, world));
    return probe.send({
      operation,
      case: request.case,
      caller,
      credentials: credentialsOf(caller),
      path: fillPath(operation.path, params),
      query,
      ...(request.body !== undefined && { body: request.body }),
      headers: request.contentType ? { "content-type": request.contentType } : {},
      ...(request.expect && { expect: request.expect }),
      ...(request.matrix && { matrix: true }),
    });
  }

  /** A valid JSON body of the operation, as text (undefined: it takes none). */
  function bodyOf(operation: Operation): string | undefined {
    if (!operation.body) return undefined;
    const body =
      validBody(operation, world, `${receiver.url}/hooks/conformance-test`) ??
      sampleBody(operation, contract.document);
    return JSON.stringify(body);
  }

  /** The findings a phase added, as lines. */
  async function phase(run: () => Promise<void>): Promise<string[]> {
    const before = probe.findings.length;
    await run();
    return probe.findings.slice(before).map(format);
  }

  it("the world's construction got documented answers only", () => {
    expect(probe.findings.map(format)).toEqual([]);
  });

  it("every read answers 200 to its owner, with a body that matches the document", async () => {
    const findings = await phase(async () => {
      for (const operation of contract.operations.filter((o) => o.method === "GET")) {
        await send(operation, naturalCaller(operation), { case: "read as owner", expect: [200] });
      }
    });
    expect(findings).toEqual([]);
  });

  it("authorization matrix: other tenants 404, anonymous 401, staff-only 403 for the others", async () => {
    const others: CallerName[] = ["other", "otherOperator", "unverified"];
    const everyone: CallerName[] = ["owner", "other", "operator", "otherOperator", "unverified", "staff"];
    const findings = await phase(async () => {
      for (const operation of contract.operations.filter((o) => o.authenticated)) {
        // An id in the path, or the experiment a hypothesis is saved from (in the body).
        const takesId =
          operation.parameters.some((p) => p.in === "path") ||
          operation.operationId === "hypothesisFromExperiment";
        if (!takesId && !staffOnly(operation)) continue;
        const body = bodyOf(operation);
        const cell = (caller: CallerName, expected: readonly number[]) =>
          send(operation, caller, {
            case: "matrix",
            ...(body !== undefined && { body, contentType: "application/json" }),
            expect: expected,
            matrix: true,
          });
        await cell("anonymous", [401]);
        if (staffOnly(operation)) {
          for (const caller of everyone.filter((c) => c !== "staff")) await cell(caller, [403]);
          continue;
        }
        if (labJob(operation)) {
          // The job is claimed by `operator`: another verified lab may not act on it (a claim
          // of the taken job is 409 experiment_already_claimed); no one else is a lab.
          for (const caller of ["owner", "other", "unverified", "staff"] as const)
            await cell(caller, [403, 404]);
          await cell("otherOperator", operation.operationId === "claimJob" ? [409] : [403, 404]);
          continue;
        }
        if (["getTemplate", "getCloudLabProvider"].includes(operation.operationId)) {
          for (const caller of everyone) await cell(caller, [200]);
          continue;
        }
        for (const caller of others) await cell(caller, [404]);
        if (operation.method === "GET") await cell("owner", [200]);
      }
    });
    expect(findings).toEqual([]);
  });

  it("the mutations answer as documented", async () => {
    const e = world.experiments;
    const findings = await phase(async () => {
      const call = (
        operationId: string,
        expected: readonly number[],
        options: { caller?: CallerName; params?: Record<string, string>; body?: unknown } = {},
      ) => {
        const operation = contract.operation(operationId);
        const body = options.body !== undefined ? JSON.stringify(options.body) : bodyOf(operation);
        return send(operation, options.caller ?? naturalCaller(operation), {
          case: "mutation",
          ...(options.params && { params: { ...pathParams(operation, world), ...options.params } }),
          ...(body !== undefined && { body, contentType: "application/json" }),
          expect: expected,
        });
      };
      for (const id of [
        "validateExperiment",
        "validateHypothesis",
        "estimateExperiment",
        "interpretCloudLabIntake",
        "translateCloudLabIntake",
        "validateCloudLabIntake",
        "generateHypothesis",
        "editEngineRunDraft",
        "updateExperiment",
        "submitDraft",
        "updateHypothesis",
        "testWebhook",
        "rotateWebhookSecret",
        "resumeWebhookDeliveries",
        "clearEngineRunHistory",
        "approveReview",
        "rejectReview",
        "approveReviewLegacy",
        "rejectReviewLegacy",
        "proposeProtocol",
        "requestProtocolChanges",
        "proposeProtocolLegacy",
        "acceptProtocolProposal",
        "updateAccountAccessLegacy",
      ])
        await call(id, [200]);
      for (const id of [
        "createExperiment",
        "hypothesisFromExperiment",
        "createHypothesis",
        "hypothesisToExperiment",
      ])
        await call(id, [201]);
      await call("replayWebhookDelivery", [202]);
      await call("startEngineRun", [202, 409]);
      await call("approveResults", [200]);
      await call("resolveDispute", [200]);
      // The world's dead letter, its consumer working again: applied (a second replay is 200 too).
      await call("replayDeadLetter", [200]);
      await call("suspendOperator", [200], { params: { operator_id: world.operatorIds.otherOperator } });
      await call("reinstateOperator", [200], { params: { operator_id: world.operatorIds.otherOperator } });
      await call("rejectOperator", [200], { params: { operator_id: world.operatorIds.unverified } });
      await call("archiveHypothesis", [200]);
      // A fresh submission, cancelled at once: the sandbox lab takes a few of its 300 ms steps
      // to finish one, though a very slow machine may let it finish first (409 then).
      const sent = await call("translateExperimentForCloudLab", [201]);
      const fresh = JSON.parse(sent.text)?.submission?.id as string;
      await call("cancelCloudLabSubmission", [200, 409], { params: { submission_id: fresh } });
      await call("revokeApiKey", [200]);
      await call("cancelExperiment", [200], { params: { experiment_id: e.open } });
    });
    expect(findings).toEqual([]);
  });

  it("bad input: wrong types, missing fields, NUL, deep nesting, huge strings, wrong media types, unknown and malformed ids", async () => {
    const findings = await phase(async () => {
      for (const operation of contract.operations) {
        const caller = naturalCaller(operation);
        const base = {
          params: pathParams(operation, world),
          query: queryFor(operation, world),
          body: operation.body ? JSON.parse(bodyOf(operation)!) : undefined,
        };
        for (const c of negativeCases(operation, base, contract) as Case[]) {
          await send(operation, caller, {
            case: c.name,
            params: c.params,
            query: c.query,
            ...(c.rawQuery !== undefined && { rawQuery: c.rawQuery }),
            ...(c.body !== undefined && { body: c.body }),
            ...(c.contentType && { contentType: c.contentType }),
            expect: c.expect,
          });
        }
      }
    });
    expect(findings).toEqual([]);
  });

  it("a token is revoked and a password changed, then the staff rotate the signing key (last: they end tokens)", async () => {
    const findings = await phase(async () => {
      const json = "application/json";
      await send(contract.operation("revokeToken"), "anonymous", {
        case: "mutation",
        body: JSON.stringify({ token: "not-a-token-this-gateway-issued" }),
        contentType: json,
        expect: [200],
      });
      await send(contract.operation("changePassword"), "other", {
        case: "mutation",
        body: JSON.stringify({
          current_password: WORLD_PASSWORD,
          new_password: "another long enough password",
        }),
        contentType: json,
        expect: [200],
      });
      await send(contract.operation("rotateSigningKey"), "staff", { case: "mutation", expect: [200] });
      await send(contract.operation("rotateSigningKeyLegacy"), "staff", { case: "mutation", expect: [200] });
    });
    expect(findings).toEqual([]);
    expect(probe.operationsCovered.size).toBe(contract.operations.length);
    // Every operation has answered 2xx at least once, with a body valid against its schema.
    expect(probe.operations2xx.size).toBe(contract.operations.length);
  });
});
