/**
 * Content types of uploaded files. Raw data files get theirs from the declared format through a
 * small map (unknown formats are application/octet-stream). Nothing maps to a type a browser would
 * run as a page from our origin (HTML, SVG, XML): such files download as octet-stream. Photos and
 * the lab notebook are recognised from their magic bytes instead, because their names are ours.
 */

/** A format is a short extension-like token: "csv", "xlsx", "fcs", "tar.gz". */
export const FORMAT_PATTERN = /^[a-z0-9][a-z0-9._+-]{0,31}$/i;

const OCTET_STREAM = "application/octet-stream";

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  txt: "text/plain",
  md: "text/markdown",
  json: "application/json",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xls: "application/vnd.ms-excel",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  tif: "image/tiff",
  tiff: "image/tiff",
  fcs: "application/vnd.isac.fcs",
  fasta: "text/plain",
  fa: "text/plain",
  fastq: "text/plain",
  fq: "text/plain",
  seq: "text/plain",
  gb: "text/plain",
  gbk: "text/plain",
  zip: "application/zip",
  gz: "application/gzip",
  "tar.gz": "application/gzip",
  h5: "application/x-hdf5",
  hdf5: "application/x-hdf5",
};

/** Content type for a declared raw data format (case-insensitive). */
export function contentTypeForFormat(format: string): string {
  const key = format.toLowerCase();
  return Object.prototype.hasOwnProperty.call(CONTENT_TYPES, key) ? CONTENT_TYPES[key]! : OCTET_STREAM;
}

export interface SniffedType {
  /** Stored format, e.g. "png", "jpeg", "pdf". */
  readonly format: string;
  /** File name extension for the names we give photos and the notebook. */
  readonly extension: string;
  readonly contentType: string;
}

/** How many leading bytes the sniffers look at. */
export const SNIFF_BYTES = 12;

function startsWith(head: Uint8Array, bytes: readonly number[], offset = 0): boolean {
  if (head.length < offset + bytes.length) return false;
  return bytes.every((byte, i) => head[offset + i] === byte);
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

const PNG: SniffedType = { format: "png", extension: "png", contentType: "image/png" };
const JPEG: SniffedType = { format: "jpeg", extension: "jpg", contentType: "image/jpeg" };
const GIF: SniffedType = { format: "gif", extension: "gif", contentType: "image/gif" };
const WEBP: SniffedType = { format: "webp", extension: "webp", contentType: "image/webp" };
const PDF: SniffedType = { format: "pdf", extension: "pdf", contentType: "application/pdf" };

/** A PNG, JPEG, GIF or WebP image recognised from its first bytes; null for anything else. */
export function sniffImage(head: Uint8Array): SniffedType | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (startsWith(head, [0xff, 0xd8, 0xff])) return JPEG;
  if (startsWith(head, ascii("GIF87a")) || startsWith(head, ascii("GIF89a"))) return GIF;
  if (startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8)) return WEBP;
  return null;
}

/** A lab notebook is a PDF or a scanned image; null for anything else. */
export function sniffNotebook(head: Uint8Array): SniffedType | null {
  if (startsWith(head, ascii("%PDF-"))) return PDF;
  return sniffImage(head);
}
