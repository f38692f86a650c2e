/**
 * Text normalisation shared by the query and the vocabulary, so both are compared in one form.
 *
 * - Superscripts are written out before compatibility folding ("10⁵" -> "10^5"), because NFKC
 *   alone would turn "5 × 10⁵" into "5 × 105".
 * - Unicode NFKC; zero-width and control characters dropped.
 * - The micro sign and Greek mu become "u" ("µg/mL" -> "ug/mL"); other Greek letters are spelled
 *   out ("TNF-α" -> "TNF-alpha", "ΔΔCt" -> "deltadeltaCt") so ASCII spellings match too.
 * - Every dash and minus sign becomes "-", typographic quotes become ASCII quotes.
 * - Runs of whitespace become one space; the ends are trimmed.
 */

const SUPERSCRIPTS: Record<string, string> = {
  "⁰": "0",
  "¹": "1",
  "²": "2",
  "³": "3",
  "⁴": "4",
  "⁵": "5",
  "⁶": "6",
  "⁷": "7",
  "⁸": "8",
  "⁹": "9",
  "⁻": "-",
  "⁺": "+",
};

const GREEK: Record<string, string> = {
  α: "alpha",
  β: "beta",
  γ: "gamma",
  δ: "delta",
  Δ: "delta",
  ε: "epsilon",
  ζ: "zeta",
  η: "eta",
  θ: "theta",
  κ: "kappa",
  λ: "lambda",
  ξ: "xi",
  π: "pi",
  ρ: "rho",
  σ: "sigma",
  τ: "tau",
  φ: "phi",
  χ: "chi",
  ψ: "psi",
  ω: "omega",
};

const SUPERSCRIPT_RUN = /[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+/g;
// Zero-width characters, the BOM, and C0/C1 controls other than tab and line breaks.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;
const GREEK_LETTER = /[α-ωΑ-Ω]/g;

/** Normalises free text for matching (see the file header). Never throws. */
export function normaliseText(raw: string): string {
  return raw
    .replace(SUPERSCRIPT_RUN, (run) => `^${[...run].map((ch) => SUPERSCRIPTS[ch] ?? "").join("")}`)
    .replace(INVISIBLE, "")
    .normalize("NFKC")
    .replace(/[µμ]/g, "u")
    .replace(GREEK_LETTER, (ch) => GREEK[ch] ?? GREEK[ch.toLowerCase()] ?? "")
    .replace(DASHES, "-")
    .replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
    .replace(/\s+/g, " ")
    .trim();
}

/** Cuts a string to at most `max` code points (never splitting a surrogate pair). */
export function clampCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  return Array.from(text).slice(0, max).join("");
}
