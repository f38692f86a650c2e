import { createHash } from "node:crypto";

import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";

import { RESULT_LIMITS, type ResultLimits } from "./limits.js";
import { parseSubmission, type ParsedSubmission, type SubmissionParse } from "./parse-submission.js";
import {
  b64,
  CSV_SHA256,
  CSV_TEXT,
  fullBody,
  GIF_HEAD,
  JPEG_HEAD,
  minimalBody,
  PDF_HEAD,
  PNG_1X1,
  WEBP_HEAD,
} from "../../../test/support/results.js";

type Json = Record<string, unknown>;

function ok(result: SubmissionParse): ParsedSubmission {
  if (!result.ok) throw new Error(`expected a valid submission, got ${JSON.stringify(result)}`);
  return result.submission;
}

function invalid(result: SubmissionParse) {
  if (result.ok || result.kind !== "invalid")
    throw new Error(`expected invalid, got ${JSON.stringify(result)}`);
  return result.fieldErrors;
}

function tooLarge(result: SubmissionParse) {
  if (result.ok || result.kind !== "too_large")
    throw new Error(`expected too_large, got ${JSON.stringify(result)}`);
  return result;
}

const withBody = (patch: Json): Json => ({ ...minimalBody(), ...patch });
const upload = (content: string, name = "data.csv", format = "csv") => ({
  name,
  format,
  content_base64: content,
});
const withUploads = (...uploads: unknown[]) => withBody({ raw_data_uploads: uploads });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("parseSubmission: valid bodies", () => {
  it("accepts the minimal body", () => {
    expect(ok(parseSubmission(minimalBody()))).toEqual({
      hypothesisSupported: true,
      confidenceLevel: "high",
      summary: "Compound X inhibited growth at 8 µg/mL.",
      measurements: [],
      files: [],
    });
  });

  it("accepts a body using every field, decodes every file and names photos and the notebook", () => {
    const submission = ok(parseSubmission(fullBody()));
    expect(submission).toMatchObject({
      hypothesisSupported: false,
      confidenceLevel: "medium",
      summary: "No difference between treated and control wells.",
      measurements: [
        { metric: "OD600", value: 0.41, unit: "AU", condition: "treated" },
        { metric: "OD600", value: 0.44, unit: "AU", condition: "control" },
        { metric: "MIC", value: 8 },
      ],
      statistics: { testUsed: "t_test", pValue: 0.21 },
      notes: "Incubator door was opened once at 10 h.",
    });
    expect(submission.measurements[2]).toEqual({ metric: "MIC", value: 8 });
    expect(
      submission.files.map(({ bytes: _bytes, sha256: _sha, sizeBytes: _size, ...rest }) => rest),
    ).toEqual([
      { kind: "raw_data", name: "plate-reader export.csv", format: "csv", contentType: "text/csv" },
      { kind: "raw_data", name: "cytometry.fcs", format: "fcs", contentType: "application/vnd.isac.fcs" },
      {
        kind: "photo",
        name: "photo-1.png",
        format: "png",
        contentType: "image/png",
        step: 3,
        caption: "Plate after 18 h",
      },
      { kind: "photo", name: "photo-2.jpg", format: "jpeg", contentType: "image/jpeg", step: "harvest" },
      { kind: "lab_notebook", name: "lab-notebook.pdf", format: "pdf", contentType: "application/pdf" },
    ]);
    const [csv, , png, jpeg, pdf] = submission.files;
    expect(Buffer.from(csv!.bytes).toString("utf8")).toBe(CSV_TEXT);
    expect(Buffer.from(png!.bytes).equals(PNG_1X1)).toBe(true);
    expect(Buffer.from(jpeg!.bytes).equals(JPEG_HEAD)).toBe(true);
    expect(Buffer.from(pdf!.bytes).equals(PDF_HEAD)).toBe(true);
    for (const file of submission.files) expect(file.sizeBytes).toBe(file.bytes.byteLength);
  });

  it("gives each file the SHA-256 that sha256sum prints for its bytes", () => {
    const submission = ok(
      parseSubmission(withUploads(upload(b64(CSV_TEXT)), upload(b64("abc"), "abc.txt", "txt"))),
    );
    // printf 'time,od600\n0,0.05\n1,0.09\n' | sha256sum ; printf 'abc' | sha256sum
    expect(submission.files.map((file) => file.sha256)).toEqual([
      CSV_SHA256,
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    ]);
  });

  it("treats null properties as absent and empty optional texts as not given", () => {
    const submission = ok(
      parseSubmission(
        withBody({
          statistics: null,
          notes: "   ",
          documentation: { photos: null, lab_notebook_base64: null },
          measurements: [{ metric: "MIC", value: 4, unit: "", condition: null }],
        }),
      ),
    );
    expect(submission).not.toHaveProperty("statistics");
    expect(submission).not.toHaveProperty("notes");
    expect(submission.measurements).toEqual([{ metric: "MIC", value: 4 }]);
    expect(submission.files).toEqual([]);
  });

  it("accepts every confidence level, any test name, and GIF and WebP photos", () => {
    for (const level of ["high", "medium", "low", "inconclusive", " LOW "]) {
      expect(ok(parseSubmission(withBody({ confidence_level: level }))).confidenceLevel).toBe(
        level.trim().toLowerCase(),
      );
    }
    expect(ok(parseSubmission(withBody({ statistics: { test_used: "Kruskal-Wallis" } }))).statistics).toEqual(
      {
        testUsed: "Kruskal-Wallis",
      },
    );
    const photos = ok(
      parseSubmission(
        withBody({
          documentation: { photos: [{ image_base64: b64(GIF_HEAD) }, { image_base64: b64(WEBP_HEAD) }] },
        }),
      ),
    ).files;
    expect(photos.map((file) => file.name)).toEqual(["photo-1.gif", "photo-2.webp"]);
    expect(photos[0]).not.toHaveProperty("step");
  });

  it("accepts base64 wrapped in lines and with a data: prefix", () => {
    const bytes = Buffer.alloc(300, 0xab);
    const wrapped = bytes.toString("base64").replace(/(.{76})/g, "$1\r\n");
    const submission = ok(
      parseSubmission(
        withUploads(
          upload(wrapped, "a.bin", "bin"),
          upload(`data:text/csv;base64,${b64(CSV_TEXT)}`, "b.csv"),
        ),
      ),
    );
    expect(Buffer.from(submission.files[0]!.bytes).equals(bytes)).toBe(true);
    expect(submission.files[0]!.contentType).toBe("application/octet-stream");
    expect(submission.files[1]!.sha256).toBe(CSV_SHA256);
  });

  it("returns the same bytes and the same SHA-256 for any uploaded content", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 2048 }), { minLength: 1, maxLength: 5 }),
        (files) => {
          const submission = ok(
            parseSubmission(
              withUploads(...files.map((bytes, i) => upload(b64(bytes), `file-${i}.bin`, "bin"))),
            ),
          );
          expect(submission.files).toHaveLength(files.length);
          submission.files.forEach((file, i) => {
            expect(Buffer.from(file.bytes).equals(Buffer.from(files[i]!))).toBe(true);
            expect(file.sha256).toBe(createHash("sha256").update(files[i]!).digest("hex"));
          });
        },
      ),
    );
  });
});

describe("parseSubmission: invalid bodies (422)", () => {
  it.each([[], null, "text", 42, [minimalBody()]])("refuses a body that is not an object: %j", (body) => {
    expect(invalid(parseSubmission(body))).toEqual([
      { field: "", code: "invalid_value", message: "The submission body must be a JSON object" },
    ]);
  });

  it.each(["hypothesis_supported", "confidence_level", "summary"])("requires %s", (field) => {
    const body = minimalBody();
    delete body[field];
    expect(invalid(parseSubmission(body))).toEqual([
      { field, code: "missing_required", message: `${field} is required` },
    ]);
  });

  it("reports every missing nested field with its path", () => {
    const errors = invalid(
      parseSubmission(
        withBody({
          measurements: [{ metric: "OD600", value: 1 }, { unit: "AU" }],
          statistics: { p_value: 0.01 },
          raw_data_uploads: [{}],
          documentation: { photos: [{ caption: "plate" }] },
        }),
      ),
    );
    expect(errors.filter((e) => e.code === "missing_required").map((e) => e.field)).toEqual([
      "measurements[1].metric",
      "measurements[1].value",
      "statistics.test_used",
      "raw_data_uploads[0].name",
      "raw_data_uploads[0].format",
      "raw_data_uploads[0].content_base64",
      "documentation.photos[0].image_base64",
    ]);
    expect(errors.every((e) => e.code === "missing_required")).toBe(true);
  });

  it.each<[string, Json, string, RegExp]>([
    [
      "a string for a boolean",
      { hypothesis_supported: "yes" },
      "hypothesis_supported",
      /must be true or false/,
    ],
    [
      "an unknown confidence level",
      { confidence_level: "certain" },
      "confidence_level",
      /must be one of: "high", "medium", "low", "inconclusive"/,
    ],
    ["a number for the confidence level", { confidence_level: 3 }, "confidence_level", /must be text/],
    ["a number for the summary", { summary: 5 }, "summary", /must be text/],
    ["a blank summary", { summary: "   " }, "summary", /must not be empty/],
    [
      "a summary over 10000 characters",
      { summary: "é".repeat(10_001) },
      "summary",
      /at most 10000 characters/,
    ],
    ["notes over 10000 characters", { notes: "n".repeat(10_001) }, "notes", /at most 10000 characters/],
    ["measurements that are not a list", { measurements: { metric: "x" } }, "measurements", /must be a list/],
    [
      "a numeric string as a value",
      { measurements: [{ metric: "OD", value: "0.4" }] },
      "measurements[0].value",
      /must be a number/,
    ],
    [
      "an infinite value",
      { measurements: [{ metric: "OD", value: JSON.parse("1e999") as number }] },
      "measurements[0].value",
      /must be a number/,
    ],
    [
      "a unit over 32 characters",
      { measurements: [{ metric: "OD", value: 1, unit: "u".repeat(33) }] },
      "measurements[0].unit",
      /at most 32/,
    ],
    [
      "a p-value above 1",
      { statistics: { test_used: "t_test", p_value: 1.5 } },
      "statistics.p_value",
      /must be at most 1/,
    ],
    [
      "a negative p-value",
      { statistics: { test_used: "t_test", p_value: -0.1 } },
      "statistics.p_value",
      /must be at least 0/,
    ],
    [
      "a format with a dot in front",
      { raw_data_uploads: [upload(b64("x"), "a.csv", ".csv")] },
      "raw_data_uploads[0].format",
      /file format such as/,
    ],
    [
      "a name with a path",
      { raw_data_uploads: [upload(b64("x"), "../a.csv")] },
      "raw_data_uploads[0].name",
      /path separator/,
    ],
    [
      "a name with a right-to-left override",
      { raw_data_uploads: [upload(b64("x"), "a\u202Evsc.exe")] },
      "raw_data_uploads[0].name",
      /invisible/,
    ],
    [
      "step 0",
      { documentation: { photos: [{ step: 0, image_base64: b64(PNG_1X1) }] } },
      "documentation.photos[0].step",
      /must be at least 1/,
    ],
    [
      "a fractional step",
      { documentation: { photos: [{ step: 1.5, image_base64: b64(PNG_1X1) }] } },
      "documentation.photos[0].step",
      /must be a step number/,
    ],
    [
      "an empty step label",
      { documentation: { photos: [{ step: " ", image_base64: b64(PNG_1X1) }] } },
      "documentation.photos[0].step",
      /must not be empty/,
    ],
    [
      "a step that is a list",
      { documentation: { photos: [{ step: [1], image_base64: b64(PNG_1X1) }] } },
      "documentation.photos[0].step",
      /step number/,
    ],
    [
      "a number for file content",
      { raw_data_uploads: [{ name: "a.csv", format: "csv", content_base64: 12 }] },
      "raw_data_uploads[0].content_base64",
      /must be text/,
    ],
  ])("refuses %s", (_label, patch, field, message) => {
    const errors = invalid(parseSubmission(withBody(patch)));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ field, code: "invalid_value" });
    expect(errors[0]!.message.startsWith(`${field} `)).toBe(true);
    expect(errors[0]!.message).toMatch(message);
  });

  it("refuses unknown fields at every level, one error each", () => {
    const errors = invalid(
      parseSubmission(
        withBody({
          result: "x",
          statistics: { test_used: "anova", df: 2 },
          raw_data_uploads: [{ ...upload(b64("x")), path: "/tmp" }],
          documentation: { photos: [{ image_base64: b64(PNG_1X1), taken_at: "now" }], video_base64: "" },
        }),
      ),
    );
    expect(errors).toHaveLength(5);
    expect(errors.map((e) => [e.field, e.code])).toEqual(
      expect.arrayContaining([
        ["result", "invalid_value"],
        ["statistics.df", "invalid_value"],
        ["raw_data_uploads[0].path", "invalid_value"],
        ["documentation.photos[0].taken_at", "invalid_value"],
        ["documentation.video_base64", "invalid_value"],
      ]),
    );
    expect(errors.find((e) => e.field === "result")!.message).toMatch(
      /Unknown field "result" in the submission/,
    );
  });

  it("refuses a __proto__ field as unknown without touching any prototype", () => {
    const body = JSON.parse(
      '{"hypothesis_supported":true,"confidence_level":"low","summary":"s","__proto__":{"polluted":1},"statistics":{"test_used":"anova","__proto__":{"x":1}}}',
    ) as unknown;
    expect(invalid(parseSubmission(body)).map((e) => e.field)).toEqual(
      expect.arrayContaining(["__proto__", "statistics.__proto__"]),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each<[string, string, RegExp]>([
    ["a character outside the alphabet", "QUJD!A==", /not in the base64 alphabet/],
    ["the base64url alphabet", Buffer.from([0xfb, 0xff]).toString("base64url") + "=", /base64url/],
    ["missing padding", "QUJDRA", /padding is missing/],
    ["a truncated text", "QUJDRA=", /truncated/],
    ["too much padding", "QUJDR===", /more than two padding/],
    ["text after the padding", "QQ==QUJD", /follows the padding/],
    ["non-canonical padding bits", "QR==", /canonical/],
    ["spaces", "QUJD QUJD", /only line breaks/],
    ["a malformed data: prefix", "data:base64,QUJD", /its data: prefix is not of the form/],
  ])("refuses file content with %s, naming the field", (_label, content, message) => {
    const errors = invalid(parseSubmission(withUploads(upload(b64("fine")), upload(content, "bad.csv"))));
    expect(errors).toEqual([
      {
        field: "raw_data_uploads[1].content_base64",
        code: "invalid_value",
        message: expect.stringMatching(message),
      },
    ]);
    expect(errors[0]!.message).toMatch(/^raw_data_uploads\[1\]\.content_base64 is not valid base64: /);
  });

  it("refuses empty files, photos that are not images and notebooks that are not PDFs or images", () => {
    const errors = invalid(
      parseSubmission(
        withBody({
          raw_data_uploads: [upload("")],
          documentation: {
            photos: [
              { image_base64: b64(PNG_1X1) },
              { image_base64: b64("<svg></svg>") },
              { image_base64: "" },
            ],
            lab_notebook_base64: b64("plain text notes"),
          },
        }),
      ),
    );
    expect(errors).toEqual([
      {
        field: "raw_data_uploads[0].content_base64",
        code: "invalid_value",
        message: expect.stringMatching(/must not be empty/),
      },
      {
        field: "documentation.photos[1].image_base64",
        code: "invalid_value",
        message: expect.stringMatching(/PNG, JPEG, GIF or WebP/),
      },
      {
        field: "documentation.photos[2].image_base64",
        code: "invalid_value",
        message: expect.stringMatching(/must not be empty/),
      },
      {
        field: "documentation.lab_notebook_base64",
        code: "invalid_value",
        message: expect.stringMatching(/must be a PDF or/),
      },
    ]);
  });

  it("refuses raw file names that repeat, ignoring case", () => {
    const errors = invalid(
      parseSubmission(
        withUploads(
          upload(b64("a"), "Plate.csv"),
          upload(b64("b"), "other.csv"),
          upload(b64("c"), "plate.CSV"),
        ),
      ),
    );
    expect(errors).toEqual([
      {
        field: "raw_data_uploads[2].name",
        code: "invalid_value",
        message:
          "raw_data_uploads[2].name repeats the name of raw_data_uploads[0] (names must be unique, ignoring case)",
      },
    ]);
  });

  it("refuses more files, photos or measurements than the limits allow", () => {
    const raw = Array.from({ length: 21 }, (_, i) => upload(b64("x"), `f${i}.csv`));
    expect(invalid(parseSubmission(withUploads(...raw)))).toEqual([
      {
        field: "raw_data_uploads",
        code: "invalid_value",
        message: "raw_data_uploads must contain at most 20 items",
      },
    ]);
    const photos = Array.from({ length: 51 }, () => ({ image_base64: b64(PNG_1X1) }));
    expect(invalid(parseSubmission(withBody({ documentation: { photos } })))).toEqual([
      {
        field: "documentation.photos",
        code: "invalid_value",
        message: "documentation.photos must contain at most 50 items",
      },
    ]);
    const measurements = Array.from({ length: 5001 }, (_, i) => ({ metric: "OD", value: i }));
    expect(invalid(parseSubmission(withBody({ measurements })))[0]).toMatchObject({
      field: "measurements",
      message: "measurements must contain at most 5000 items",
    });
    expect(ok(parseSubmission(withUploads(...raw.slice(0, 20)))).files).toHaveLength(20);
  });
});

describe("parseSubmission: sizes (413), computed before decoding", () => {
  const small: ResultLimits = { ...RESULT_LIMITS, maxFileBytes: 300, maxSubmissionBytes: 500 };

  it("accepts a file of exactly the per-file limit and refuses one byte more", () => {
    expect(
      ok(parseSubmission(withUploads(upload(b64(Buffer.alloc(300, 1)))), small)).files[0]!.bytes,
    ).toHaveLength(300);
    const refused = tooLarge(
      parseSubmission(withUploads(upload(b64("ok")), upload(b64(Buffer.alloc(301, 1)), "big.bin")), small),
    );
    expect(refused.details).toEqual({
      limit: "file",
      max_bytes: 300,
      size_bytes: 301,
      field: "raw_data_uploads[1].content_base64",
    });
    expect(refused.message).toBe(
      "raw_data_uploads[1].content_base64 is 301 bytes once decoded; a file may have at most 300 bytes",
    );
  });

  it("refuses files that together exceed the submission limit, counting photos and the notebook", () => {
    const refused = tooLarge(
      parseSubmission(
        withBody({
          raw_data_uploads: [upload(b64(Buffer.alloc(250, 1)))],
          documentation: {
            photos: [{ image_base64: b64(Buffer.concat([PNG_1X1, Buffer.alloc(150)])) }],
            lab_notebook_base64: b64(Buffer.concat([PDF_HEAD, Buffer.alloc(100 - PDF_HEAD.length)])),
          },
        }),
        small,
      ),
    );
    expect(refused.details).toEqual({
      limit: "submission",
      max_bytes: 500,
      size_bytes: 250 + PNG_1X1.length + 150 + 100,
    });
  });

  it("is too_large even when other fields are invalid or the oversized content is not base64", () => {
    const refused = tooLarge(
      parseSubmission(
        { summary: 12, raw_data_uploads: [upload(`${"!".repeat(40)}${"A".repeat(800)}`)] },
        small,
      ),
    );
    expect(refused.details).toMatchObject({ limit: "file", size_bytes: 630 });
  });

  it("refuses an upload over 10 MiB under the default limits without decoding anything", () => {
    const big = "A".repeat(Math.ceil((RESULT_LIMITS.maxFileBytes + 1) / 3) * 4);
    const from = vi.spyOn(Buffer, "from");
    const refused = tooLarge(parseSubmission(withUploads(upload(big))));
    expect(refused.details).toMatchObject({ limit: "file", max_bytes: 10 * 1024 * 1024 });
    expect(from).not.toHaveBeenCalled();
  });

  it("refuses three 9 MiB files (27 MiB) under the default 25 MiB submission limit without decoding", () => {
    const nineMiB = "A".repeat(((9 * 1024 * 1024) / 3) * 4);
    const from = vi.spyOn(Buffer, "from");
    const refused = tooLarge(
      parseSubmission(
        withUploads(upload(nineMiB, "a.bin"), upload(nineMiB, "b.bin"), upload(nineMiB, "c.bin")),
      ),
    );
    expect(refused.details).toEqual({
      limit: "submission",
      max_bytes: 25 * 1024 * 1024,
      size_bytes: 27 * 1024 * 1024,
    });
    expect(from).not.toHaveBeenCalled();
  });
});
