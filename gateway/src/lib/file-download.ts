/**
 * Response headers of a results file download (GET /files/{file_id}). The file's name and
 * media type come from what an operator uploaded, so both are treated as hostile: the name
 * is encoded per RFC 6266 / RFC 8187 and the media type must be a plain type/subtype.
 */
import { createHash } from "node:crypto";

/** RFC 8187 attr-char: what may stay unescaped in filename*. */
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;
const FALLBACK_NAME = "download";

/** The last path segment, without control characters (names are labels, never paths). */
function baseName(name: string): string {
  const segment = name.split(/[/\\]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  return segment.replace(/[\u0000-\u001f\u007f]/g, "").trim();
}

/** RFC 8187 value: UTF-8 bytes, every byte outside attr-char as %XX. */
function extValue(name: string): string {
  let encoded = "";
  for (const byte of Buffer.from(name, "utf8")) {
    const char = String.fromCharCode(byte);
    encoded +=
      byte < 0x80 && ATTR_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return `UTF-8''${encoded}`;
}

/**
 * `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<exact name>`: browsers that
 * read filename* get the exact name, others an ASCII approximation in which every character
 * that could end or escape the quoted string (", \, %, non-ASCII) is "_".
 */
export function contentDisposition(name: string): string {
  const base = baseName(name) || FALLBACK_NAME;
  const fallback = base.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  return `attachment; filename="${fallback}"; filename*=${extValue(base)}`;
}

const TOKEN = "[A-Za-z0-9!#$&^_.+-]+";
const MEDIA_TYPE = new RegExp(
  `^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"[\\x20-\\x21\\x23-\\x5b\\x5d-\\x7e]*"))*$`,
);

/** The stored media type when it is a well-formed type/subtype[; params], else octet-stream. */
export function safeContentType(contentType: string): string {
  const trimmed = contentType.trim();
  return trimmed.length <= 255 && MEDIA_TYPE.test(trimmed) ? trimmed : "application/octet-stream";
}

/** Lower-case hex SHA-256 of the bytes (the results record's checksum_sha256). */
export function sha256Hex(content: Uint8Array): string {
  return createHash("sha256").update(content).digest("hex");
}

/** RFC 9530 Repr-Digest of the bytes: `sha-256=:<base64>:`. */
export function reprDigest(sha256HexDigest: string): string {
  return `sha-256=:${Buffer.from(sha256HexDigest, "hex").toString("base64")}:`;
}
