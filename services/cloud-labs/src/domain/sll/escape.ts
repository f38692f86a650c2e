/**
 * Wolfram Language literals for SLL text. All user text (titles, names, actions, sequences) goes
 * through `wlString`, whose output is pure printable ASCII:
 *
 * - `"` -> `\"` and `\` -> `\\`, so text can never end its literal early, and can never start an
 *   escape of its own (`\(`, `\!`, `\[Name]`... all need an unescaped backslash).
 * - `*` -> `\:002a`, so a literal can also sit inside a `(* ... *)` comment without closing it
 *   (the comment delimiters both need a `*`). Inside a string it still reads as `*`.
 * - Any other character outside printable ASCII (controls, newlines, DEL, every non-ASCII
 *   character, including bidirectional controls and line separators) -> `\:xxxx` (4 hex digits),
 *   or `\|xxxxxx` (6 hex digits) for a character outside the Basic Multilingual Plane. [recalled:
 *   the `\|` form is WL's escape for code points above U+FFFF]
 * - A lone UTF-16 surrogate (not a character) becomes U+FFFD, written `\:fffd`.
 *
 * Numbers never use JavaScript's exponent form: 1e-7 is written `1*^-7`.
 */
import { SllRenderError } from "./errors.js";

const hex = (value: number, width: number) => value.toString(16).padStart(width, "0");

export function wlString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) out += '\\"';
    else if (code === 0x5c) out += "\\\\";
    else if (code === 0x2a) out += "\\:002a";
    else if (code >= 0x20 && code <= 0x7e) out += text[i];
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += `\\|${hex(text.codePointAt(i)!, 6)}`;
        i++;
      } else out += "\\:fffd";
    } else if (code >= 0xdc00 && code <= 0xdfff) out += "\\:fffd";
    else out += `\\:${hex(code, 4)}`;
  }
  return out + '"';
}

/** A comment whose whole content is one escaped string literal, so it cannot close early. */
export function wlComment(text: string): string {
  return `(* ${wlString(text)} *)`;
}

export function wlNumber(value: number): string {
  if (!Number.isFinite(value)) throw new SllRenderError(`not a finite number: ${String(value)}`);
  if (Object.is(value, -0)) return "0";
  const text = String(value);
  const exponent = /^(-?[0-9.]+)e([+-][0-9]+)$/.exec(text);
  return exponent ? `${exponent[1]}*^${Number(exponent[2])}` : text;
}
