import type { RouteHandler } from "@hono/zod-openapi";
import { BULK_CALL_TIMEOUT_MS, asGateway } from "../../lib/clients.js";
import type { GatewayEnv } from "../../lib/create-app.js";
import { contentDisposition, reprDigest, safeContentType, sha256Hex } from "../../lib/file-download.js";
import { callService } from "../../lib/service-call.js";
import type * as routes from "./files.routes.js";

export const getResultFileHandler: RouteHandler<typeof routes.getResultFile, GatewayEnv> = async (c) => {
  const { file_id } = c.req.valid("param");
  const { expires, signature } = c.req.valid("query");
  // No caller is known: the signed URL is the credential, and the service checks it.
  const file = await callService(() =>
    c
      .get("runtime")
      .clients.experiments.getResultFile(
        { fileId: file_id, expires, signature },
        asGateway(BULK_CALL_TIMEOUT_MS),
      ),
  );
  const digest = sha256Hex(file.content);
  if (file.checksumSha256 && file.checksumSha256.toLowerCase() !== digest) {
    // Corrupt storage must not reach a requester as their data: 500, logged by onError.
    throw new Error(`stored file ${file_id} does not match its checksum`);
  }
  c.header("Content-Type", safeContentType(file.contentType));
  c.header("Content-Length", String(file.content.byteLength));
  c.header("Content-Disposition", contentDisposition(file.name));
  c.header("Repr-Digest", reprDigest(digest));
  c.header("Cache-Control", "private, no-store");
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Content-Security-Policy", "default-src 'none'; sandbox");
  // Decoded protobuf bytes never live in a SharedArrayBuffer; the cast only narrows the type.
  return c.body(file.content as Uint8Array<ArrayBuffer>, 200);
};
