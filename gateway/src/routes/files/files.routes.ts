import { createRoute, z } from "@hono/zod-openapi";
import { publicAccess } from "../../lib/access.js";
import { errorResponses, responseHeaders } from "../../lib/openapi.js";

export const FileParamsSchema = z.object({
  file_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be a file id")
    .openapi({ param: { name: "file_id", in: "path" }, example: "fil_01jd0c6r5v8q2m7x4k9w3t1b6n" }),
});

export const FileQuerySchema = z.object({
  expires: z
    .string()
    .regex(/^\d{1,12}$/, "must be Unix seconds")
    .transform((value) => BigInt(value))
    .openapi({ type: "integer", description: "When the URL stops working (Unix seconds), as signed" }),
  signature: z
    .string()
    .regex(/^[A-Za-z0-9_=+/-]{1,512}$/, "must be the URL's signature")
    .openapi({ description: "The URL's signature, as signed by the experiments service" }),
});

const text = (description: string) => ({ description, schema: { type: "string" as const } });

export const getResultFile = createRoute({
  method: "get",
  path: "/files/{file_id}",
  operationId: "getResultFile",
  tags: ["Files"],
  summary: "Download a results file through its signed URL (no credentials needed)",
  description:
    "The URLs in a results record (raw_data_files[].url, documentation photos and notebook) point here. The signature is the credential: no Authorization or X-API-Key is needed (they are ignored), and the URL stops working at urls_expire_at. Rate-limited per source address like every anonymous request. The answer is always a download (Content-Disposition: attachment), never rendered.",
  ...publicAccess,
  request: { params: FileParamsSchema, query: FileQuerySchema },
  responses: {
    200: {
      description:
        "The file's bytes, with the media type it was stored with (application/octet-stream when that is not a plain type/subtype)",
      headers: {
        ...responseHeaders(),
        "Content-Length": { description: "Size in bytes", schema: { type: "integer" as const } },
        "Content-Disposition": text(
          `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<the exact name, percent-encoded> (RFC 6266, RFC 8187)`,
        ),
        "Repr-Digest": text(
          "sha-256=:<base64 SHA-256 of the bytes>: (RFC 9530): the checksum_sha256 of the results record (there in hex). The gateway computes it from the bytes it sends and refuses to send a file that does not match its stored checksum.",
        ),
        "Cache-Control": {
          description: "private, no-store",
          schema: { type: "string" as const, const: "private, no-store" },
        },
        "X-Content-Type-Options": {
          description: "nosniff",
          schema: { type: "string" as const, const: "nosniff" },
        },
        "Content-Security-Policy": text("default-src 'none'; sandbox: nothing in the file may run"),
      },
      // Any stored media type (text/csv, image/png, ...): a range, so every one is documented.
      content: { "*/*": { schema: z.string().openapi({ format: "binary" }) } },
    },
    ...errorResponses({
      authenticated: false,
      parameters: true,
      notFound: "No such file (not_found)",
      extra: {
        403: "The signature is invalid, or the URL has expired (forbidden); read the results again for a fresh URL",
        422: "expires or signature is missing or malformed (validation_failed)",
      },
    }),
  },
});
