/**
 * Test support: a small, independent reader for the Wolfram Language subset the renderer emits
 * (string literals, comments, numbers, symbols, brackets, braces, commas, `->`). It accepts only
 * what the escaping rules promise, so a renderer bug shows up as a reader error or a wrong value.
 */

export type Token =
  | { kind: "string"; value: string }
  | { kind: "comment"; text: string }
  | { kind: "number"; value: number }
  | { kind: "symbol"; name: string }
  | { kind: "punct"; text: "[" | "]" | "{" | "}" | "," | "->" };

const HEX4 = /^[0-9a-f]{4}$/;
const HEX6 = /^[0-9a-f]{6}$/;

/** Reads the string literal starting at `start` (a `"`); returns its value and the index after it. */
export function readStringLiteral(text: string, start = 0): { value: string; end: number } {
  if (text[start] !== '"') throw new Error(`no string literal at ${start}`);
  let value = "";
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i]!;
    const code = ch.charCodeAt(0);
    if (code < 0x20 || code > 0x7e) throw new Error(`raw character U+${code.toString(16)} inside a literal`);
    if (ch === '"') return { value, end: i + 1 };
    if (ch !== "\\") {
      value += ch;
      i++;
      continue;
    }
    const next = text[i + 1];
    if (next === '"' || next === "\\") {
      value += next;
      i += 2;
    } else if (next === ":" && HEX4.test(text.slice(i + 2, i + 6))) {
      value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
      i += 6;
    } else if (next === "|" && HEX6.test(text.slice(i + 2, i + 8))) {
      value += String.fromCodePoint(parseInt(text.slice(i + 2, i + 8), 16));
      i += 8;
    } else throw new Error(`unknown escape at ${i}`);
  }
  throw new Error("unterminated string literal");
}

/** Reads `(* ... *)` at `start`, with WL's nesting; returns the inside and the index after it. */
export function readComment(text: string, start: number): { text: string; end: number } {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    if (text.startsWith("(*", i)) {
      depth++;
      i += 2;
    } else if (text.startsWith("*)", i)) {
      depth--;
      i += 2;
      if (depth === 0) return { text: text.slice(start + 2, i - 2), end: i };
    } else i++;
  }
  throw new Error("unterminated comment");
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i, i + 2);
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
    } else if (rest === "(*") {
      const comment = readComment(text, i);
      tokens.push({ kind: "comment", text: comment.text });
      i = comment.end;
    } else if (ch === '"') {
      const literal = readStringLiteral(text, i);
      tokens.push({ kind: "string", value: literal.value });
      i = literal.end;
    } else if (rest === "->") {
      tokens.push({ kind: "punct", text: "->" });
      i += 2;
    } else if ("[]{},".includes(ch)) {
      tokens.push({ kind: "punct", text: ch as "[" });
      i++;
    } else {
      const number = /^-?[0-9]+(\.[0-9]+)?(\*\^-?[0-9]+)?/.exec(text.slice(i, i + 64));
      const symbol = /^[A-Za-z][A-Za-z0-9]*/.exec(text.slice(i, i + 64));
      if (number) {
        const [mantissa, exponent] = number[0].split("*^");
        tokens.push({ kind: "number", value: Number(`${mantissa}e${exponent ?? "0"}`) });
        i += number[0].length;
      } else if (symbol) {
        tokens.push({ kind: "symbol", name: symbol[0] });
        i += symbol[0].length;
      } else throw new Error(`unexpected ${JSON.stringify(ch)} at ${i}`);
    }
  }
  return tokens;
}

/** The one string literal a rendered comment holds (after an optional fixed prefix). */
export function commentLiteral(comment: string): string {
  const quote = comment.indexOf('"');
  const literal = readStringLiteral(comment, quote);
  if (comment.slice(literal.end).trim() !== "") throw new Error("text after the comment's literal");
  return literal.value;
}

/** A parsed expression in a plain, comparable form. */
export type Plain =
  | { s: string }
  | { n: number }
  | { sym: string }
  | { q: [number, string] }
  | { list: Plain[] }
  | { call: string; args: Plain[] }
  | { rule: [Plain, Plain] };

/**
 * Parses the tokens of one expression (comments skipped): strings, numbers, `number Unit`
 * quantities, symbols, `Head[args]`, `{items}`, `key -> value`. Throws on anything else or on
 * tokens left over, so text that escaped a literal cannot go unnoticed.
 */
export function parseExpression(tokens: readonly Token[]): Plain {
  const code = tokens.filter((t) => t.kind !== "comment");
  let i = 0;
  const peek = () => code[i];
  const sequence = (close: "]" | "}"): Plain[] => {
    const items: Plain[] = [];
    if (peek()?.kind === "punct" && (peek() as { text: string }).text === close) {
      i++;
      return items;
    }
    for (;;) {
      items.push(argument());
      const token = code[i++];
      if (token?.kind === "punct" && token.text === close) return items;
      if (token?.kind !== "punct" || token.text !== ",")
        throw new Error(`expected , or ${close} at token ${i - 1}`);
    }
  };
  const argument = (): Plain => {
    const left = expression();
    const next = peek();
    if (next?.kind === "punct" && next.text === "->") {
      i++;
      return { rule: [left, expression()] };
    }
    return left;
  };
  const expression = (): Plain => {
    const token = code[i++];
    if (!token) throw new Error("unexpected end");
    if (token.kind === "string") return { s: token.value };
    if (token.kind === "number") {
      const unit = peek();
      if (unit?.kind === "symbol") {
        i++;
        return { q: [token.value, unit.name] };
      }
      return { n: token.value };
    }
    if (token.kind === "symbol") {
      const next = peek();
      if (next?.kind === "punct" && next.text === "[") {
        i++;
        return { call: token.name, args: sequence("]") };
      }
      return { sym: token.name };
    }
    if (token.kind === "punct" && token.text === "{") return { list: sequence("}") };
    throw new Error(`unexpected token ${JSON.stringify(token)}`);
  };
  const result = expression();
  if (i !== code.length) throw new Error(`${code.length - i} tokens after the expression`);
  return result;
}
