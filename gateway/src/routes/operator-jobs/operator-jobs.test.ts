import { Code, ConnectError } from "@connectrpc/connect";
import { ExperimentStatus } from "@petri/contracts/experiments";
import { Tier } from "@petri/contracts/identity";
import {
  DomainError,
  type DomainErrorKind,
  RateLimitedError,
  domainErrorToConnectError,
} from "@petri/service-kit";
import { FakeClock } from "@petri/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { FakeExperiments, gatewayWithServices } from "../../../test/support/fake-experiments.js";
import { FakeIdentity, bodyOf, from } from "../../../test/support/fake-identity.js";
import { caller } from "../../../test/support/requests.js";
import { OPERATION_BODY_LIMITS } from "../../lib/body-limit.js";
import { PIECE_CHARS } from "../../lib/results-upload.js";
import { SUBMISSION } from "../../../test/support/lab-submission.js";

const SOURCE = "198.51.100.110";
const DEFAULT_LIMIT = 16_384;

let clock: FakeClock;
let identity: FakeIdentity;
let experiments: FakeExperiments;
let app: Awaited<ReturnType<typeof gatewayWithServices>>;
let requesterId: string;
let labKey: string;
let call: ReturnType<typeof caller>;

beforeEach(async () => {
  clock = new FakeClock("2026-03-02T10:00:00.000Z");
  identity = await FakeIdentity.create(clock);
  experiments = new FakeExperiments(clock);
  app = await gatewayWithServices(identity, { experiments }, { maxBodyBytes: DEFAULT_LIMIT });
  requesterId = identity.addAccount({ tier: Tier.PRO }).account.id;
  // A lab verified a moment ago: its account's role still says requester, which must not matter.
  // The feed, claim, start and issue routes run on the real services
  // (test/routes/operator-jobs.int.test.ts); the submission's streaming and the error mapping
  // of a service's refusals need a service that records and fails on demand.
  const lab = identity.addAccount({ tier: Tier.PRO });
  labKey = lab.secret;
  experiments.loop.operators.set(lab.account.id, { operatorId: "op_lab_one", labName: "Lab One" });
  call = caller(app, SOURCE, () => labKey);
});

/** An open experiment of the requester that the lab has claimed (and maybe started). */
async function claimed(start = false) {
  const experiment = experiments.add(requesterId, ExperimentStatus.OPEN);
  expect((await call("POST", `/operator/jobs/${experiment.id}/claim`, CONFIRMED)).status).toBe(200);
  if (start) expect((await call("POST", `/operator/jobs/${experiment.id}/start`)).status).toBe(200);
  return experiment;
}

const CONFIRMED = { equipment_confirmation: true, authorization_confirmation: true };

describe("POST /operator/jobs/{id}/submit", () => {
  it("streams the files apart from the other fields (numbers as written) and answers pending_approval", async () => {
    const experiment = await claimed(true);
    // Spacing may change, but 1.50 must arrive as written (re-serialising would print 1.5).
    const text = `{ "summary": "ok",\n  "measurements": [{"metric":"MIC","value":1.50,"unit":"ug/mL"}], "hypothesis_supported": true,
      "raw_data_uploads": [{"name": "a.csv", "format": "CSV", "content_base64": "YSxi\\nMSwy"}], "notes": null }`;
    await clock.advance(60_000);
    const response = await call("POST", `/operator/jobs/${experiment.id}/submit`, text);
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({
      experiment_id: experiment.id,
      status: "pending_approval",
      submitted_at: "2026-03-02T10:01:00.000Z",
    });
    const upload = experiments.last("UploadResults");
    expect(upload).toMatchObject({
      experimentId: experiment.id,
      files: [{ field: "raw_data_uploads[0].content_base64", base64: "YSxi\nMSwy" }],
    });
    expect(upload.fieldsJson).toBe(
      '{"summary":"ok","measurements":[{"metric":"MIC","value":1.50,"unit":"ug/mL"}],"hypothesis_supported":true,"raw_data_uploads":[{"name":"a.csv","format":"CSV","content_base64":""}],"notes":null}',
    );
    expect(experiments.count("SubmitResults")).toBe(0);
  });

  it("sends a large file in bounded pieces, accepts bodies up to 40 MiB and refuses larger ones with 413", async () => {
    const experiment = await claimed(true);
    const content = "QUJD".repeat(512 * 1024);
    const twoMiB = JSON.stringify({
      ...SUBMISSION,
      raw_data_uploads: [{ name: "big.csv", format: "CSV", content_base64: content }],
    });
    const accepted = await call("POST", `/operator/jobs/${experiment.id}/submit`, twoMiB);
    expect(accepted.status).toBe(200);
    const upload = experiments.last("UploadResults");
    expect(upload.files).toEqual([{ field: "raw_data_uploads[0].content_base64", base64: content }]);
    expect(upload.largestPiece).toBeLessThanOrEqual(PIECE_CHARS);
    expect(upload.messages).toBeGreaterThanOrEqual(content.length / PIECE_CHARS + 2);

    const limit = OPERATION_BODY_LIMITS["POST /operator/jobs/{experiment_id}/submit"]!;
    expect(limit).toBe(40 * 1024 * 1024);
    const tooLarge = `{"notes":"${"x".repeat(limit - 11)}"}`;
    expect(tooLarge.length).toBe(limit + 1);
    const refused = await call("POST", `/operator/jobs/${experiment.id}/submit`, tooLarge);
    expect(refused.status).toBe(413);
    expect(await bodyOf(refused)).toEqual({
      error: { code: "payload_too_large", message: expect.any(String), details: { max_bytes: limit } },
    });
    const tooLargeFile = `{"raw_data_uploads":[{"content_base64":"${"A".repeat(limit)}"}]}`;
    const refusedFile = await call("POST", `/operator/jobs/${experiment.id}/submit`, tooLargeFile);
    expect(refusedFile.status).toBe(413);
    expect((await bodyOf(refusedFile)).error.details).toEqual({ max_bytes: limit });
    expect(experiments.count("UploadResults")).toBe(1);
  });

  it("refuses too deep nesting, NUL and lone surrogates in any key or string with 422 naming the field", async () => {
    const experiment = await claimed(true);
    const deep = `{"measurements":${"[".repeat(64)}${"]".repeat(64)}}`;
    const cases: Array<[string, string]> = [
      [deep, "measurements" + "[0]".repeat(63)],
      ['{"summary":"a\\u0000b"}', "summary"],
      ['{"measurements":[{"unit":"\\ud800"}]}', "measurements[0].unit"],
      ['{"raw_data_uploads":[{"content_base64":"QUJD\\u0000"}]}', "raw_data_uploads[0].content_base64"],
      ['{"documentation":{"a\\u0000":1}}', 'documentation["a\\u0000"]'],
    ];
    for (const [body, field] of cases) {
      const response = await call("POST", `/operator/jobs/${experiment.id}/submit`, body);
      expect(response.status, body.slice(0, 80)).toBe(422);
      const error = (await bodyOf(response)).error;
      expect(error.code).toBe("validation_failed");
      expect(error.details.errors[0].field, body.slice(0, 80)).toBe(field);
    }
    // 64 levels are fine; a surrogate pair is fine.
    const ok = `{"summary":"\\ud83d\\ude00","hypothesis_supported":true,"measurements":${"[".repeat(63)}${"]".repeat(63)}}`;
    expect((await call("POST", `/operator/jobs/${experiment.id}/submit`, ok)).status).toBe(200);
    expect(experiments.count("UploadResults")).toBe(1);
  });

  it("reads and discards the rest of a body the service refused early, then answers", async () => {
    const experiment = await claimed(true);
    // Another lab: the service refuses on the first message, before any file.
    const other = identity.addAccount({ tier: Tier.PRO });
    experiments.loop.operators.set(other.account.id, { operatorId: "op_other", labName: "Lab Two" });
    const piece = new TextEncoder().encode("QUJD".repeat(16 * 1024));
    const pieces = 64;
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"raw_data_uploads":[{"content_base64":"'));
      },
      pull(controller) {
        pulled += 1;
        if (pulled <= pieces) controller.enqueue(piece);
        else {
          controller.enqueue(new TextEncoder().encode('"}]}'));
          controller.close();
        }
      },
    });
    const response = await app.request(
      `/operator/jobs/${experiment.id}/submit`,
      {
        method: "POST",
        headers: { "x-api-key": other.secret, "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit,
      from(SOURCE),
    );
    expect(response.status).toBe(404);
    expect(pulled).toBe(pieces + 1);
  });

  it("a service's payload_too_large is 413 whatever its Connect code", async () => {
    const experiment = await claimed(true);
    const tooLarge = (kind: DomainErrorKind) =>
      new (class extends DomainError {
        readonly kind = kind;
        override get code() {
          return "payload_too_large";
        }
      })("a file is larger than 25 MiB", { file: "raw_data_uploads[0]", max_bytes: 26_214_400 });
    for (const [kind, code] of [
      ["validation_failed", Code.InvalidArgument],
      ["conflict", Code.AlreadyExists],
      ["rate_limit_exceeded", Code.ResourceExhausted],
    ] as const) {
      const error = domainErrorToConnectError(tooLarge(kind));
      expect(error.code).toBe(code);
      experiments.failures.set("UploadResults", () => error);
      const response = await call("POST", `/operator/jobs/${experiment.id}/submit`, SUBMISSION);
      expect(response.status, kind).toBe(413);
      expect((await bodyOf(response)).error).toEqual({
        code: "payload_too_large",
        message: "a file is larger than 25 MiB",
        details: { file: "raw_data_uploads[0]", max_bytes: 26_214_400 },
      });
    }
  });

  it("Connect refusing the message as over a service's read limit is 413, not a rate limit", async () => {
    const experiment = await claimed(true);
    experiments.failures.set(
      "UploadResults",
      () =>
        new ConnectError(
          "message size 5000000 is larger than configured readMaxBytes 4194304",
          Code.ResourceExhausted,
        ),
    );
    const response = await call("POST", `/operator/jobs/${experiment.id}/submit`, SUBMISSION);
    expect(response.status).toBe(413);
    expect((await bodyOf(response)).error).toEqual({
      code: "payload_too_large",
      message: "the request is larger than the service accepts",
      details: {},
    });
    // A service's own rate limit (with its ErrorDetail) stays 429.
    experiments.failures.set("UploadResults", () =>
      domainErrorToConnectError(new RateLimitedError("slow down", { limit: 10 })),
    );
    expect((await call("POST", `/operator/jobs/${experiment.id}/submit`, SUBMISSION)).status).toBe(429);
  });

  it("a body that is not a JSON object is 422 and a non-JSON type 415, without a call", async () => {
    const experiment = await claimed(true);
    for (const body of ["[]", '"results"', "{oops"]) {
      expect((await call("POST", `/operator/jobs/${experiment.id}/submit`, body)).status, body).toBe(422);
    }
    const text = await call("POST", `/operator/jobs/${experiment.id}/submit`, "{}", labKey, {
      "content-type": "text/plain",
    });
    expect(text.status).toBe(415);
    expect(experiments.count("UploadResults")).toBe(0);
  });

  it("other routes keep the default limit", async () => {
    const experiment = await claimed(true);
    const response = await call("POST", `/operator/jobs/${experiment.id}/issues`, {
      description: "x".repeat(DEFAULT_LIMIT),
      severity: "low",
    });
    expect(response.status).toBe(413);
    expect((await bodyOf(response)).error.details).toEqual({ max_bytes: DEFAULT_LIMIT });
  });
});
