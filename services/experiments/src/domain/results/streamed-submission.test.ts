import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";

import { Base64StreamDecoder } from "./base64-stream.js";
import { SNIFF_BYTES } from "./file-types.js";
import { RESULT_LIMITS } from "./limits.js";
import { parseSubmission } from "./parse-submission.js";
import { type StreamedContent, checkStreamedSubmission } from "./streamed-submission.js";
import { b64, fullBody, minimalBody } from "../../../test/support/results.js";

/** What UploadResults makes of `body`: contents decoded apart in pieces, replaced by "". */
function streamedOf(body: Record<string, any>) {
  const skeleton = structuredClone(body);
  const contents = new Map<string, StreamedContent>();
  const take = (field: string, holder: Record<string, any> | undefined, key: string) => {
    const text = holder?.[key];
    if (typeof text !== "string") return;
    const decoder = new Base64StreamDecoder();
    const parts: Uint8Array[] = [];
    const step = text.length > 100_000 ? 65_536 : 7;
    for (let i = 0; i < text.length; i += step) parts.push(decoder.push(text.slice(i, i + step)));
    parts.push(decoder.end());
    const bytes = Buffer.concat(parts);
    contents.set(field, {
      decodedBytes: decoder.decodedBytes,
      ...(decoder.problem !== undefined ? { problem: decoder.problem } : {}),
      sha256: createHash("sha256").update(bytes).digest("hex"),
      head: bytes.subarray(0, SNIFF_BYTES),
    });
    holder![key] = "";
  };
  (skeleton.raw_data_uploads ?? []).forEach((upload: Record<string, any>, i: number) =>
    take(`raw_data_uploads[${i}].content_base64`, upload, "content_base64"),
  );
  (skeleton.documentation?.photos ?? []).forEach((photo: Record<string, any>, i: number) =>
    take(`documentation.photos[${i}].image_base64`, photo, "image_base64"),
  );
  take("documentation.lab_notebook_base64", skeleton.documentation, "lab_notebook_base64");
  return checkStreamedSubmission(JSON.parse(JSON.stringify(skeleton)), contents);
}

function variants(): Array<[string, Record<string, any>]> {
  const badPhoto = fullBody() as Record<string, any>;
  badPhoto.documentation.photos[1].image_base64 = b64("not an image");
  const badBase64 = fullBody() as Record<string, any>;
  badBase64.raw_data_uploads[0].content_base64 = "QUJD QUJD";
  const duplicate = fullBody() as Record<string, any>;
  duplicate.raw_data_uploads[1].name = "PLATE-READER EXPORT.CSV";
  const shape = fullBody() as Record<string, any>;
  delete shape.summary;
  shape.raw_data_uploads[0].content_base64 = "";
  shape.extra = 1;
  const tooLarge = minimalBody() as Record<string, any>;
  tooLarge.raw_data_uploads = [
    { name: "a.bin", format: "bin", content_base64: b64(Buffer.alloc(RESULT_LIMITS.maxFileBytes + 1)) },
  ];
  return [
    ["every field", fullBody()],
    ["the smallest", minimalBody()],
    ["a photo that is no image", badPhoto],
    ["bad base64", badBase64],
    ["names repeated", duplicate],
    ["shape errors and an empty file", shape],
    ["a file over its limit", tooLarge],
  ];
}

describe("checkStreamedSubmission", () => {
  it.each(variants())("gives parseSubmission's verdict for %s", (_name, body) => {
    const unary = parseSubmission(body);
    const streamed = streamedOf(body);
    if (!unary.ok) {
      expect(streamed).toEqual(unary);
      return;
    }
    expect(streamed.ok).toBe(true);
    if (!streamed.ok) return;
    const { files, ...fields } = unary.submission;
    expect(streamed.submission).toEqual({
      ...fields,
      files: files.map(({ bytes: _bytes, ...file }) => file),
    });
  });

  it("refuses a file content that did not arrive as a file", () => {
    const body = fullBody() as Record<string, any>;
    const result = checkStreamedSubmission(body, new Map());
    expect(result.ok).toBe(false);
    if (result.ok || result.kind !== "invalid") throw new Error("expected invalid");
    expect(result.fieldErrors.map((error) => error.field)).toContain("raw_data_uploads[0].content_base64");
  });
});
