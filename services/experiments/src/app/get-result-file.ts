import { createHash } from "node:crypto";
import { type Clock, ForbiddenError, type Logger, NotFoundError } from "@petri/service-kit";
import type { Kysely } from "kysely";
import { type BlobStore, verifyFileUrl } from "../blobs/index.js";
import { findResultFile } from "../db/results.js";
import type { ExperimentsDb, ResultFileRow } from "../db/schema.js";

export interface ResultFileContent {
  file: ResultFileRow;
  bytes: Uint8Array;
}

/** A stored file whose bytes are missing or differ from their recorded checksum: never served. */
export class CorruptResultFileError extends Error {
  constructor(
    readonly fileId: string,
    problem: string,
  ) {
    super(`result file ${fileId} cannot be served: ${problem}`);
    this.name = "CorruptResultFileError";
  }
}

/**
 * GET /files/{file_id}?expires&signature: the bytes of a stored result file. The signed URL
 * is the credential (the gateway calls with its system principal), so the signature is
 * checked first: invalid 403, expired 403 saying so, and only then an unknown file 404. The
 * bytes are checked against the recorded SHA-256 before they are served; missing or
 * different bytes are logged and answered as an internal error.
 */
export function makeGetResultFile(deps: {
  db: Kysely<ExperimentsDb>;
  clock: Clock;
  blobs: BlobStore;
  logger: Logger;
  signingKey(): Promise<Uint8Array>;
}) {
  return async function getResultFile(input: {
    fileId: string;
    expires: number;
    signature: string;
  }): Promise<ResultFileContent> {
    const verdict = verifyFileUrl(
      await deps.signingKey(),
      input.fileId,
      input.expires,
      input.signature,
      deps.clock.now(),
    );
    if (verdict === "expired")
      throw new ForbiddenError("this file link has expired; get a fresh one from the experiment's results", {
        reason: "link_expired",
      });
    if (verdict !== "ok")
      throw new ForbiddenError("this file link is not valid", { reason: "invalid_signature" });
    const file = await findResultFile(deps.db, input.fileId);
    if (!file) throw new NotFoundError("file", input.fileId);
    const bytes = await deps.blobs.get(file.blob_key);
    const problem =
      bytes === null
        ? "its bytes are missing from the blob store"
        : createHash("sha256").update(bytes).digest("hex") !== file.sha256
          ? "its bytes do not match the recorded SHA-256"
          : null;
    if (problem || bytes === null) {
      const error = new CorruptResultFileError(file.file_id, problem ?? "unreadable");
      deps.logger.error(
        { fileId: file.file_id, experimentId: file.experiment_id, blobKey: file.blob_key, problem },
        "refused to serve a result file that failed its integrity check",
      );
      throw error;
    }
    return { file, bytes };
  };
}
