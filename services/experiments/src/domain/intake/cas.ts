/**
 * CAS Registry Numbers: `digits-digits-digit` (2–7, 2, 1 digits). The last digit is a check
 * digit: the sum of every other digit times its position counted from the right (1, 2, 3 …),
 * modulo 10. Normalised form: ASCII hyphens, no leading zeros in the first group.
 */

const CAS_SHAPE = /^(\d{2,7})-(\d{2})-(\d)$/;

export function casChecksumOk(cas: string): boolean {
  const match = CAS_SHAPE.exec(cas);
  if (!match) return false;
  const body = `${match[1]}${match[2]}`;
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    sum += Number(body[body.length - 1 - i]) * (i + 1);
  }
  return sum % 10 === Number(match[3]);
}

/** Normalises a CAS number written with any dash and optional spaces; null when not CAS-shaped. */
export function normalizeCas(raw: string): string | null {
  const match = /^\s*0*(\d{1,7})\s*[‐‑‒–—−-]\s*(\d{2})\s*[‐‑‒–—−-]\s*(\d)\s*$/.exec(raw);
  if (!match) return null;
  const first = match[1] ?? "";
  if (first.length < 2) return null;
  return `${first}-${match[2]}-${match[3]}`;
}

const DASH_CHARS = "\\-‐‑‒–—−";
const DASH = `[${DASH_CHARS}]`;
/** CAS-shaped numbers inside free text (not part of a longer run of digits or dashes). */
const CAS_IN_TEXT = new RegExp(
  `(?<![\\d${DASH_CHARS}])(\\d{2,7})\\s?${DASH}\\s?(\\d{2})\\s?${DASH}\\s?(\\d)(?![\\d])`,
  "g",
);
/** Digits-only CAS numbers are only recognised right after a "CAS" label. */
const CAS_LABELLED_DIGITS =
  /\bCAS(?:\s*(?:RN|No\.?|Number|#|Registry\s+Number))?\s*[:#]?\s*(\d{5,10})(?!\d)/gi;

/** Every checksum-valid CAS number mentioned in `text`, normalised. */
export function findCasNumbers(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(CAS_IN_TEXT)) {
    const cas = normalizeCas(`${match[1]}-${match[2]}-${match[3]}`);
    if (cas && casChecksumOk(cas)) found.add(cas);
  }
  for (const match of text.matchAll(CAS_LABELLED_DIGITS)) {
    const digits = (match[1] ?? "").replace(/^0+/, "");
    if (digits.length < 5) continue;
    const cas = `${digits.slice(0, -3)}-${digits.slice(-3, -1)}-${digits.slice(-1)}`;
    if (casChecksumOk(cas)) found.add(cas);
  }
  return [...found];
}
