/**
 * UploadResults (the streamed submit the gateway uses): the files arrive in base64 pieces after
 * the experiment id and before the other fields; the outcome is SubmitResults' for the same body
 * (stored bytes and checksums, the status change and its event), with the caller and state
 * checked before any file is stored, sizes refused as they grow, strict base64 with the field's
 * path, and no blob left behind by a refused upload.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { create } from "@bufbuild/protobuf";
import { Code, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ExperimentsService } from "@petri/contracts/experiments";
import { PRINCIPAL_HEADER, buildServiceServer, serverInterceptors } from "@petri/service-kit";
import { internalTestCredentials } from "@petri/service-testkit";
import {
  ExperimentAction,
  ExperimentStatus,
  type UploadResultsRequest,
  UploadResultsRequestSchema,
} from "@petri/contracts/experiments";
import { describe, expect, it } from "vitest";
import { RESULT_LIMITS } from "../src/domain/results/index.js";
import { CSV_SHA256, CSV_TEXT, b64, filesUnder, fullBody, minimalBody } from "./support/results.js";
import { ENGINES, failure, logger, outboxEvents, experimentsOn } from "./support/harness.js";
import { startedExperiment } from "./support/loop.js";

/** Small pieces, so that even the small files of these bodies arrive in several. */
const PIECE = 1000;
/**
 * The gateway's piece (its PIECE_CHARS): the files of the size-limit cases go in these, as they
 * would from the gateway; in 1,000-character pieces 25 MiB would be 35,000 messages, which
 * took over 30 s on a loaded machine.
 */
const GATEWAY_PIECE = 64 * 1024;

/** The messages the gateway sends for `body`: contents moved out in pieces, replaced by "". */
function uploadOf(
  experimentId: string,
  body: Record<string, unknown>,
  piece = PIECE,
): UploadResultsRequest[] {
  const messages = [
    create(UploadResultsRequestSchema, { part: { case: "experimentId", value: experimentId } }),
  ];
  const copy = structuredClone(body) as Record<string, any>;
  const file = (field: string, holder: Record<string, any>, key: string) => {
    const text = holder[key];
    if (typeof text !== "string") return;
    messages.push(create(UploadResultsRequestSchema, { part: { case: "fileField", value: field } }));
    for (let i = 0; i < text.length; i += piece) {
      messages.push(
        create(UploadResultsRequestSchema, { part: { case: "fileBase64", value: text.slice(i, i + piece) } }),
      );
    }
    holder[key] = "";
  };
  (copy.raw_data_uploads ?? []).forEach((upload: Record<string, any>, i: number) =>
    file(`raw_data_uploads[${i}].content_base64`, upload, "content_base64"),
  );
  (copy.documentation?.photos ?? []).forEach((photo: Record<string, any>, i: number) =>
    file(`documentation.photos[${i}].image_base64`, photo, "image_base64"),
  );
  if (copy.documentation)
    file("documentation.lab_notebook_base64", copy.documentation, "lab_notebook_base64");
  messages.push(
    create(UploadResultsRequestSchema, { part: { case: "fieldsJson", value: JSON.stringify(copy) } }),
  );
  return messages;
}

async function* stream(messages: readonly UploadResultsRequest[]) {
  yield* messages;
}

describe.each(ENGINES)("UploadResults on %s", (engine) => {
  const exp = experimentsOn(engine);

  it("stores every streamed file with its checksum and moves to pending_approval with ResultsSubmitted", async () => {
    const started = await startedExperiment(exp);
    const id = started.experiment.id;
    const big = Buffer.alloc(3 * 1024 * 1024 + 7);
    for (let i = 0; i < big.length; i += 1) big[i] = (i * 31 + 7) % 251;
    const body = fullBody() as Record<string, any>;
    // A large file, line-wrapped as MIME encoders do, crossing many pieces.
    body.raw_data_uploads.push({
      name: "big.bin",
      format: "bin",
      content_base64: b64(big).replace(/.{76}/g, "$&\r\n"),
    });
    const answer = await exp.as(started.operator.principal).uploadResults(stream(uploadOf(id, body)));
    expect(answer.experiment!.status).toBe(ExperimentStatus.PENDING_APPROVAL);

    const rows = await exp.db
      .selectFrom("result_files")
      .selectAll()
      .where("experiment_id", "=", id)
      .orderBy("position")
      .execute();
    expect(rows.map((row) => [row.kind, row.name])).toEqual([
      ["raw_data", "plate-reader export.csv"],
      ["raw_data", "cytometry.fcs"],
      ["raw_data", "big.bin"],
      ["photo", "photo-1.png"],
      ["photo", "photo-2.jpg"],
      ["lab_notebook", "lab-notebook.pdf"],
    ]);
    expect(rows[0]!.sha256).toBe(CSV_SHA256);
    expect(
      Buffer.from(await readFile(path.join(exp.blobDir, ...rows[0]!.blob_key.split("/")))).toString(),
    ).toBe(CSV_TEXT);
    const stored = await readFile(path.join(exp.blobDir, ...rows[2]!.blob_key.split("/")));
    expect(stored.equals(big)).toBe(true);
    expect(rows[2]!.sha256).toBe(createHash("sha256").update(big).digest("hex"));
    expect(Number(rows[2]!.size_bytes)).toBe(big.length);
    expect(await filesUnder(path.join(exp.blobDir, "results", id))).toHaveLength(6);
    const events = (await outboxEvents(exp.db, id)).filter(
      (e) => e.subject === "petri.experiments.results_submitted",
    );
    expect(events).toHaveLength(1);
    // A repeated upload finds pending_approval.
    const again = await failure(exp.as(started.operator.principal).uploadResults(stream(uploadOf(id, body))));
    expect(again.code).toBe(Code.FailedPrecondition);
  });

  it("streams over HTTP/2 as in cluster mode (the service's own server, the gateway's transport)", async () => {
    const started = await startedExperiment(exp);
    const id = started.experiment.id;
    const { verifier, signer } = await internalTestCredentials();
    const server = buildServiceServer({
      routes: (router) => exp.service.routes(router),
      interceptors: serverInterceptors({ logger, verifier }),
      readiness: async () => ({ ready: true, checks: [] }),
      logger,
    });
    const { port } = await server.listen(0, "127.0.0.1");
    try {
      const token = await signer.sign(started.operator.principal);
      const client = createClient(
        ExperimentsService,
        createConnectTransport({
          baseUrl: `http://127.0.0.1:${port}`,
          httpVersion: "2",
          interceptors: [(next) => (req) => (req.header.set(PRINCIPAL_HEADER, token), next(req))],
        }),
      );
      const big = b64(Buffer.alloc(2 * 1024 * 1024 + 1, 9));
      const body = fullBody() as Record<string, any>;
      body.raw_data_uploads[1].content_base64 = big;
      const answer = await client.uploadResults(stream(uploadOf(id, body)));
      expect(answer.experiment!.status).toBe(ExperimentStatus.PENDING_APPROVAL);
      expect(await filesUnder(path.join(exp.blobDir, "results", id))).toHaveLength(5);
    } finally {
      await server.close();
    }
  });

  it("checks the caller before storing anything: the requester is refused and no blob is written", async () => {
    const started = await startedExperiment(exp);
    const id = started.experiment.id;
    const refused = await failure(exp.as(started.requester).uploadResults(stream(uploadOf(id, fullBody()))));
    expect(refused.code).toBe(Code.PermissionDenied);
    const unknown = await failure(
      exp
        .as(started.operator.principal)
        .uploadResults(stream(uploadOf("exp_01jd0c6r5v8q2m7x4k9w3t1b6n", fullBody()))),
    );
    expect(unknown.code).toBe(Code.NotFound);
    expect(await filesUnder(path.join(exp.blobDir, "results", id))).toEqual([]);
  });

  it("refuses a file as soon as it passes 10 MiB (payload_too_large with its path), storing nothing", async () => {
    const started = await startedExperiment(exp);
    const id = started.experiment.id;
    const body = fullBody() as Record<string, any>;
    body.raw_data_uploads[1].content_base64 = b64(Buffer.alloc(RESULT_LIMITS.maxFileBytes + 1, 7));
    const refused = await failure(
      exp.as(started.operator.principal).uploadResults(stream(uploadOf(id, body, GATEWAY_PIECE))),
    );
    expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: "payload_too_large" });
    expect(refused.details).toMatchObject({
      limit: "file",
      max_bytes: RESULT_LIMITS.maxFileBytes,
      field: "raw_data_uploads[1].content_base64",
    });
    expect(await filesUnder(path.join(exp.blobDir, "results", id))).toEqual([]);
  });

  it("accepts files of exactly 10 MiB each and 25 MiB together", async () => {
    const started = await startedExperiment(exp);
    const id = started.experiment.id;
    const body = minimalBody();
    const sizes = [RESULT_LIMITS.maxFileBytes, RESULT_LIMITS.maxFileBytes, 5 * 1024 * 1024];
    expect(sizes.reduce((a, b) => a + b)).toBe(RESULT_LIMITS.maxSubmissionBytes);
    body.raw_data_uploads = sizes.map((size, n) => ({
      name: `f${n}.bin`,
      format: "bin",
      content_base64: b64(Buffer.alloc(size, n + 1)),
    }));
    const answer = await exp
      .as(started.operator.principal)
      .uploadResults(stream(uploadOf(id, body, GATEWAY_PIECE)));
    expect(answer.experiment!.status).toBe(ExperimentStatus.PENDING_APPROVAL);
    // What the gateway's approve and dispute links come from.
    expect(answer.experiment!.availableActions).toEqual([
      ExperimentAction.APPROVE_RESULTS,
      ExperimentAction.DISPUTE,
    ]);
    expect(await filesUnder(path.join(exp.blobDir, "results", id))).toHaveLength(3);
  });

  it("refuses files over 25 MiB together, storing nothing", async () => {
    const started = await startedExperiment(exp);
    const id = started.experiment.id;
    const body = minimalBody();
    const nine = b64(Buffer.alloc(9 * 1024 * 1024, 1));
    body.raw_data_uploads = [1, 2, 3].map((n) => ({
      name: `f${n}.bin`,
      format: "bin",
      content_base64: nine,
    }));
    const refused = await failure(
      exp.as(started.operator.principal).uploadResults(stream(uploadOf(id, body, GATEWAY_PIECE))),
    );
    expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: "payload_too_large" });
    expect(refused.details).toMatchObject({
      limit: "submission",
      max_bytes: RESULT_LIMITS.maxSubmissionBytes,
    });
    expect(await filesUnder(path.join(exp.blobDir, "results", id))).toEqual([]);
  });

  it("answers bad base64 and shape errors together with their paths, and removes the files already stored", async () => {
    const started = await startedExperiment(exp);
    const id = started.experiment.id;
    const body = fullBody() as Record<string, any>;
    body.documentation.photos[0].image_base64 = "iVBORw0K-_==";
    delete body.summary;
    const refused = await failure(
      exp.as(started.operator.principal).uploadResults(stream(uploadOf(id, body))),
    );
    expect(refused.code).toBe(Code.InvalidArgument);
    expect(refused.reason).toBe("validation_failed");
    const fields = refused.violations.map((violation) => violation.field);
    expect(fields).toEqual(expect.arrayContaining(["summary", "documentation.photos[0].image_base64"]));
    expect(
      refused.violations.find((v) => v.field === "documentation.photos[0].image_base64")!.message,
    ).toMatch(/base64url/);
    expect(await filesUnder(path.join(exp.blobDir, "results", id))).toEqual([]);
    const after = await exp.as(started.operator.principal).getExperiment({ experimentId: id });
    expect(after.experiment!.status).toBe(ExperimentStatus.IN_PROGRESS);
  });

  it("refuses an upload out of order (a piece before any file, no fields at the end)", async () => {
    const started = await startedExperiment(exp);
    const id = started.experiment.id;
    const messages = uploadOf(id, fullBody());
    const noFields = await failure(
      exp.as(started.operator.principal).uploadResults(stream(messages.slice(0, -1))),
    );
    expect(noFields.code).toBe(Code.InvalidArgument);
    const orphanPiece = [
      messages[0]!,
      create(UploadResultsRequestSchema, { part: { case: "fileBase64", value: "QUJD" } }),
    ];
    expect((await failure(exp.as(started.operator.principal).uploadResults(stream(orphanPiece)))).code).toBe(
      Code.InvalidArgument,
    );
    expect(await filesUnder(path.join(exp.blobDir, "results", id))).toEqual([]);
  });
});
