/** Fixtures for the results tests: small real files and submission bodies. */
import { readdir } from "node:fs/promises";
import path from "node:path";

/** A 1×1 PNG. */
export const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);
/** The start of a JPEG (SOI + APP0 JFIF marker); the sniffers read only the first bytes. */
export const JPEG_HEAD = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01,
]);
export const GIF_HEAD = Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00", "latin1");
export const WEBP_HEAD = Buffer.from("RIFF\x24\x00\x00\x00WEBPVP8 ", "latin1");
export const PDF_HEAD = Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1");

/** `printf 'time,od600\n0,0.05\n1,0.09\n' | sha256sum` */
export const CSV_TEXT = "time,od600\n0,0.05\n1,0.09\n";
export const CSV_SHA256 = "205fb4e42f242ea7b589386361276450530665f61b8c340bdf4ae2a1a529d83d";

export const b64 = (bytes: Uint8Array | string): string =>
  (typeof bytes === "string" ? Buffer.from(bytes, "utf8") : Buffer.from(bytes)).toString("base64");

/** The smallest valid submission. */
export function minimalBody(): Record<string, unknown> {
  return {
    hypothesis_supported: true,
    confidence_level: "high",
    summary: "Compound X inhibited growth at 8 µg/mL.",
  };
}

/** A submission using every field. */
export function fullBody(): Record<string, unknown> {
  return {
    hypothesis_supported: false,
    confidence_level: "Medium",
    summary: "  No difference between treated and control wells.  ",
    measurements: [
      { metric: "OD600", value: 0.41, unit: "AU", condition: "treated" },
      { metric: "OD600", value: 0.44, unit: "AU", condition: "control" },
      { metric: "MIC", value: 8 },
    ],
    statistics: { test_used: "t_test", p_value: 0.21 },
    raw_data_uploads: [
      { name: "plate-reader export.csv", format: "CSV", content_base64: b64(CSV_TEXT) },
      { name: "cytometry.fcs", format: "fcs", content_base64: b64("FCS3.1    binary") },
    ],
    documentation: {
      photos: [
        { step: 3, image_base64: b64(PNG_1X1), caption: "Plate after 18 h" },
        { step: "harvest", image_base64: `data:image/jpeg;base64,${b64(JPEG_HEAD)}` },
      ],
      lab_notebook_base64: b64(PDF_HEAD),
    },
    notes: "Incubator door was opened once at 10 h.",
  };
}

/** The files a file-system blob store holds under `dir` (relative, sorted), not its temporary ones. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && !entry.parentPath.includes(`${path.sep}.tmp`))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}
