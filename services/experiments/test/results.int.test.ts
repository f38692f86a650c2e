/**
 * Results: submission by the assigned operator (files into the blob store, checksums, the
 * guarded status change, ResultsSubmitted), who may read them and when, signed file URLs
 * (valid, tampered, expired, unknown, corrupted), size limits, and no orphaned blobs when a
 * submission fails.
 */
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Code } from "@connectrpc/connect";
import { ExperimentStatus, ResultsRecordSchema } from "@petri/contracts/experiments";
import { toRestJson } from "@petri/contracts/rest-json";
import { describe, expect, it } from "vitest";
import { FILE_URL_TTL_SECONDS, FsBlobStore } from "../src/blobs/index.js";
import { RESULT_LIMITS } from "../src/domain/results/index.js";
import { CSV_SHA256, CSV_TEXT, b64, filesUnder, fullBody, minimalBody } from "./support/results.js";
import {
  ENGINES,
  type Experiments,
  SYSTEM,
  experimentsOn,
  failure,
  jump,
  json,
  outboxEvents,
  requester,
  staff,
  startExperiments,
} from "./support/harness.js";
import { claimedExperiment, startedExperiment, submittedExperiment } from "./support/loop.js";
import { verifiedOperator } from "./support/marketplace.js";

interface ResultsRecordJson {
  status: string;
  summary: string;
  raw_data_files: Array<{ name: string; url: string; checksum_sha256: string; size_bytes: number }>;
  documentation: { photos: Array<{ url: string; step: unknown }>; lab_notebook_url: string | null };
  structured_data: { measurements: unknown[] };
}

/** The parts of a signed URL as the gateway passes them on. */
function linkParts(url: string) {
  const parsed = new URL(url, "http://gateway.invalid");
  const fileId = parsed.pathname.split("/").at(-1)!;
  return {
    fileId,
    expires: BigInt(parsed.searchParams.get("expires")!),
    signature: parsed.searchParams.get("signature")!,
  };
}

describe.each(ENGINES)("results on %s", (engine) => {
  const exp = experimentsOn(engine);

  async function resultsOf(principal: Parameters<Experiments["as"]>[0], experimentId: string) {
    const answer = await exp.as(principal).getResults({ experimentId });
    const record = JSON.parse(answer.resultsJson) as ResultsRecordJson;
    // The typed record says exactly what the JSON text says, key order included (D342).
    expect(JSON.stringify(toRestJson(ResultsRecordSchema, answer.results!, { absent: "null" }))).toBe(
      answer.resultsJson,
    );
    return { record, expiresAt: answer.urlsExpireAt! };
  }

  it("stores the files, moves to pending_approval and records ResultsSubmitted", async () => {
    const started = await startedExperiment(exp);
    const id = started.experiment.id;
    const { experiment } = await exp
      .as(started.operator.principal)
      .submitResults({ experimentId: id, resultsJson: json(fullBody()) });
    expect(experiment).toMatchObject({ status: ExperimentStatus.PENDING_APPROVAL });
    expect(experiment!.resultsSubmittedAt).toBeDefined();

    const files = await exp.db
      .selectFrom("result_files")
      .selectAll()
      .where("experiment_id", "=", id)
      .execute();
    expect(files.map((f) => f.kind)).toEqual(["raw_data", "raw_data", "photo", "photo", "lab_notebook"]);
    expect(files[0]).toMatchObject({
      name: "plate-reader export.csv",
      sha256: CSV_SHA256,
      size_bytes: CSV_TEXT.length,
    });
    for (const file of files) {
      const bytes = await readFile(path.join(exp.blobDir, ...file.blob_key.split("/")));
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(file.sha256);
    }

    const events = (await outboxEvents(exp.db, id)).filter(
      (e) => e.subject === "petri.experiments.results_submitted",
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.payload.fileCount).toBe(5);
    expect(events[0]!.payload.experiment.status).toBe(ExperimentStatus.PENDING_APPROVAL);

    // A repeated submit finds the results already in: 409, nothing stored twice.
    const again = await failure(
      exp.as(started.operator.principal).submitResults({ experimentId: id, resultsJson: json(fullBody()) }),
    );
    expect(again).toMatchObject({ code: Code.FailedPrecondition, reason: "invalid_state" });
    expect(again.details).toEqual({ status: "pending_approval", allowed_from: ["claimed", "in_progress"] });
    expect(await filesUnder(path.join(exp.blobDir, "results", id))).toHaveLength(5);
  });

  it("accepts results straight from claimed, setting started_at", async () => {
    const claimed = await claimedExperiment(exp);
    const { experiment } = await exp
      .as(claimed.operator.principal)
      .submitResults({ experimentId: claimed.experiment.id, resultsJson: json(minimalBody()) });
    expect(experiment!.status).toBe(ExperimentStatus.PENDING_APPROVAL);
    expect(experiment!.startedAt).toEqual(experiment!.resultsSubmittedAt);
  });

  it("lets only the assigned operator submit (requester and staff 403, others 404), validating the body (422)", async () => {
    const started = await startedExperiment(exp);
    const id = started.experiment.id;
    const body = { experimentId: id, resultsJson: json(minimalBody()) };
    expect((await failure(exp.as(started.requester).submitResults(body))).code).toBe(Code.PermissionDenied);
    expect((await failure(exp.as(staff()).submitResults(body))).code).toBe(Code.PermissionDenied);
    expect((await failure(exp.as((await verifiedOperator(exp)).principal).submitResults(body))).code).toBe(
      Code.NotFound,
    );

    const invalid = await failure(
      exp.as(started.operator.principal).submitResults({
        experimentId: id,
        resultsJson: json({ hypothesis_supported: "yes", summary: "" }),
      }),
    );
    expect(invalid).toMatchObject({ code: Code.InvalidArgument, reason: "validation_failed" });
    expect(invalid.violations.length).toBeGreaterThan(0);
    const notJson = await failure(
      exp.as(started.operator.principal).submitResults({ experimentId: id, resultsJson: "{not json" }),
    );
    expect(notJson.code).toBe(Code.InvalidArgument);
    const opened = await exp.as(started.operator.principal).getExperiment({ experimentId: id });
    expect(opened.experiment!.status).toBe(ExperimentStatus.IN_PROGRESS);
  });

  it("refuses a file over the size limit with reason payload_too_large, storing nothing", async () => {
    const started = await startedExperiment(exp);
    const body = minimalBody();
    body.raw_data_uploads = [
      {
        name: "huge.csv",
        format: "csv",
        content_base64: b64(Buffer.alloc(RESULT_LIMITS.maxFileBytes + 1, 7)),
      },
    ];
    const refused = await failure(
      exp
        .as(started.operator.principal)
        .submitResults({ experimentId: started.experiment.id, resultsJson: json(body) }),
    );
    expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: "payload_too_large" });
    expect(refused.details).toMatchObject({ limit: "file", max_bytes: RESULT_LIMITS.maxFileBytes });
    expect(await filesUnder(path.join(exp.blobDir, "results", started.experiment.id))).toEqual([]);
  });

  it("shows results to the requester, the assigned operator and staff from pending_approval on; 404 to others", async () => {
    const started = await startedExperiment(exp);
    const id = started.experiment.id;
    const early = await failure(exp.as(started.requester).getResults({ experimentId: id }));
    expect(early).toMatchObject({ code: Code.FailedPrecondition, reason: "invalid_state" });
    expect(early.details).toEqual({
      status: "in_progress",
      allowed_from: ["pending_approval", "completed", "disputed", "resolved"],
    });

    await exp
      .as(started.operator.principal)
      .submitResults({ experimentId: id, resultsJson: json(fullBody()) });
    for (const who of [started.requester, started.operator.principal, staff()]) {
      const { record, expiresAt } = await resultsOf(who, id);
      expect(record).toMatchObject({
        status: "pending_approval",
        summary: "No difference between treated and control wells.",
      });
      expect(record.raw_data_files[0]).toMatchObject({
        checksum_sha256: CSV_SHA256,
        size_bytes: CSV_TEXT.length,
      });
      expect(record.structured_data.measurements).toHaveLength(3);
      expect(Number(expiresAt.seconds)).toBe(
        Math.floor(exp.clock.now().getTime() / 1000) + FILE_URL_TTL_SECONDS,
      );
    }
    for (const who of [requester(), (await verifiedOperator(exp)).principal])
      expect((await failure(exp.as(who).getResults({ experimentId: id }))).code).toBe(Code.NotFound);
  });

  it("serves a file for a valid signed URL (system principal), refusing tampered and expired links", async () => {
    const { requester: me, experiment } = await submittedExperiment(exp);
    const { record } = await resultsOf(me, experiment.id);
    const link = linkParts(record.raw_data_files[0]!.url);
    const served = await exp.as(SYSTEM).getResultFile(link);
    expect(Buffer.from(served.content).toString("utf8")).toBe(CSV_TEXT);
    expect(served).toMatchObject({
      name: "plate-reader export.csv",
      contentType: "text/csv",
      checksumSha256: CSV_SHA256,
    });
    const photo = await exp.as(SYSTEM).getResultFile(linkParts(record.documentation.photos[0]!.url));
    expect(photo.contentType).toBe("image/png");
    const notebook = await exp.as(SYSTEM).getResultFile(linkParts(record.documentation.lab_notebook_url!));
    expect(notebook.contentType).toBe("application/pdf");

    const other = linkParts(record.raw_data_files[1]!.url);
    for (const tampered of [
      { ...link, signature: other.signature },
      { ...link, fileId: other.fileId },
      { ...link, expires: link.expires + 60n },
      { ...link, signature: "x" },
    ]) {
      const refused = await failure(exp.as(SYSTEM).getResultFile(tampered));
      expect(refused.code).toBe(Code.PermissionDenied);
      expect(refused.message).toContain("not valid");
    }
    // Anonymous callers are refused before any check.
    expect((await failure(exp.as().getResultFile(link))).code).toBe(Code.Unauthenticated);

    await jump(exp, FILE_URL_TTL_SECONDS * 1000);
    const expired = await failure(exp.as(SYSTEM).getResultFile(link));
    expect(expired.code).toBe(Code.PermissionDenied);
    expect(expired.message).toContain("expired");
    // A fresh read of the results hands out fresh links.
    const fresh = linkParts((await resultsOf(me, experiment.id)).record.raw_data_files[0]!.url);
    expect((await exp.as(SYSTEM).getResultFile(fresh)).checksumSha256).toBe(CSV_SHA256);
  });

  it("answers 404 for a validly signed link to an unknown file, and never serves corrupted bytes", async () => {
    const { requester: me, experiment } = await submittedExperiment(exp);
    const { record } = await resultsOf(me, experiment.id);
    const link = linkParts(record.raw_data_files[0]!.url);
    const file = await exp.db
      .selectFrom("result_files")
      .selectAll()
      .where("file_id", "=", link.fileId)
      .executeTakeFirstOrThrow();

    await writeFile(path.join(exp.blobDir, ...file.blob_key.split("/")), "time,od600\n0,9.99\n");
    const corrupted = await failure(exp.as(SYSTEM).getResultFile(link));
    expect(corrupted.code).toBe(Code.Internal);
    expect(corrupted.message).not.toContain("od600");

    await exp.db.deleteFrom("result_files").where("file_id", "=", link.fileId).execute();
    expect((await failure(exp.as(SYSTEM).getResultFile(link))).code).toBe(Code.NotFound);
  });

  it("leaves no blob behind when storing a file fails", async () => {
    const root = path.join(exp.blobDir, "failing");
    const real = new FsBlobStore(root);
    let puts = 0;
    const failing = await startExperiments(exp.backend.database, {
      clock: exp.clock,
      blobStore: {
        kind: "fs",
        get: (key) => real.get(key),
        delete: (key) => real.delete(key),
        async put(key, bytes, contentType) {
          puts += 1;
          if (puts === 3) throw new Error("disk full");
          await real.put(key, bytes, contentType);
        },
      },
    });
    try {
      const started = await startedExperiment(failing);
      const refused = await failure(
        failing
          .as(started.operator.principal)
          .submitResults({ experimentId: started.experiment.id, resultsJson: json(fullBody()) }),
      );
      expect(refused.code).toBe(Code.Internal);
      expect(puts).toBe(5);
      expect(await filesUnder(root)).toEqual([]);
      const after = await failing
        .as(started.operator.principal)
        .getExperiment({ experimentId: started.experiment.id });
      expect(after.experiment!.status).toBe(ExperimentStatus.IN_PROGRESS);
    } finally {
      await failing.stop();
    }
  });

  it("keeps only the winner's files when two submissions race", async () => {
    const started = await startedExperiment(exp);
    const id = started.experiment.id;
    const outcomes = await Promise.allSettled(
      [fullBody(), fullBody()].map((body) =>
        exp.as(started.operator.principal).submitResults({ experimentId: id, resultsJson: json(body) }),
      ),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const stored = await exp.db
      .selectFrom("result_files")
      .select("blob_key")
      .where("experiment_id", "=", id)
      .execute();
    expect(await filesUnder(path.join(exp.blobDir, "results", id))).toEqual(
      stored.map((f) => path.relative(path.join("results", id), f.blob_key)).sort(),
    );
  });
});
