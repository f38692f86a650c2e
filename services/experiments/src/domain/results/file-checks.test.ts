import { describe, expect, it } from "vitest";

import { fileNameProblem } from "./file-names.js";
import { contentTypeForFormat, sniffImage, sniffNotebook } from "./file-types.js";
import { GIF_HEAD, JPEG_HEAD, PDF_HEAD, PNG_1X1, WEBP_HEAD } from "../../../test/support/results.js";

describe("fileNameProblem", () => {
  it.each(["plate-1.csv", "Raw data (run 2).xlsx", ".hidden.csv", "données_µM.tsv", "a".repeat(200), "x"])(
    "accepts %j",
    (name) => {
      expect(fileNameProblem(name, 200)).toBeUndefined();
    },
  );

  it.each([
    ["", /empty/],
    ["a".repeat(201), /at most 200 characters/],
    [" plate.csv", /start or end with spaces/],
    ["plate.csv\n", /start or end with spaces/],
    ["runs/plate.csv", /path separator/],
    ["..\\plate.csv", /path separator/],
    ["/etc/passwd", /path separator/],
    ["..", /".."/],
    ["plate..csv", /".."/],
    [".", /must not be "."/],
    ["plate\u0000.csv", /control characters/],
    ["plate\u0007.csv", /control characters/],
    ["plate\u0085.csv", /control characters/],
    ["report\u202efdp.exe", /invisible formatting/],
    ["a\u200bb.csv", /invisible formatting/],
    ["a\ud800b.csv", /invisible formatting/],
    ['plate"1".csv', /< > : " \| \? \*/],
    ["C:plate.csv", /< > : " \| \? \*/],
    ["plate?.csv", /< > : " \| \? \*/],
  ])("refuses %j", (name, problem) => {
    expect(fileNameProblem(name, 200)).toMatch(problem);
  });

  it("counts characters, not UTF-16 units", () => {
    expect(fileNameProblem("🧫".repeat(200), 200)).toBeUndefined();
    expect(fileNameProblem("🧫".repeat(201), 200)).toMatch(/at most 200/);
  });
});

describe("content types", () => {
  it.each([
    ["csv", "text/csv"],
    ["CSV", "text/csv"],
    ["xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
    ["fcs", "application/vnd.isac.fcs"],
    ["pdf", "application/pdf"],
    ["tiff", "image/tiff"],
    ["tar.gz", "application/gzip"],
    ["ab1", "application/octet-stream"],
    ["html", "application/octet-stream"],
    ["svg", "application/octet-stream"],
    ["xml", "application/octet-stream"],
    ["constructor", "application/octet-stream"],
    ["__proto__", "application/octet-stream"],
  ])("format %s -> %s", (format, type) => {
    expect(contentTypeForFormat(format)).toBe(type);
  });

  it("recognises images and notebooks by their magic bytes only", () => {
    expect(sniffImage(PNG_1X1)?.format).toBe("png");
    expect(sniffImage(JPEG_HEAD)).toEqual({ format: "jpeg", extension: "jpg", contentType: "image/jpeg" });
    expect(sniffImage(GIF_HEAD)?.format).toBe("gif");
    expect(sniffImage(WEBP_HEAD)?.format).toBe("webp");
    expect(sniffImage(PDF_HEAD)).toBeNull();
    expect(sniffImage(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'>"))).toBeNull();
    expect(sniffImage(Buffer.from("RIFF\x24\x00\x00\x00WAVEfmt ", "latin1"))).toBeNull();
    expect(sniffImage(new Uint8Array([0x89, 0x50]))).toBeNull();
    expect(sniffNotebook(PDF_HEAD)?.contentType).toBe("application/pdf");
    expect(sniffNotebook(PNG_1X1)?.format).toBe("png");
    expect(sniffNotebook(Buffer.from("just some text"))).toBeNull();
  });
});
