/**
 * Does the title a search returned match the title registered for the DOI? Titles differ
 * harmlessly in markup (<i>, <sub>, MathML), entities, case, punctuation, accents and a
 * trailing full stop; a DOI attached to another paper differs in its words. Pure.
 */

/** The similarity at or above which a retrieved title counts as the registered one. */
export const TITLE_MATCH_THRESHOLD = 0.9;

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith("#x")) return safeCodePoint(Number.parseInt(lower.slice(2), 16), entity);
    if (lower.startsWith("#")) return safeCodePoint(Number.parseInt(lower.slice(1), 10), entity);
    return NAMED_ENTITIES[lower] ?? entity;
  });
}

function safeCodePoint(codePoint: number, fallback: string): string {
  return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : fallback;
}

/** Markup removed, entities decoded, whitespace collapsed: the title as shown to a reader. */
export function plainTitle(title: string): string {
  return decodeEntities(title.replace(/<[^>]*>/g, " "))
    .replace(/\s+/g, " ")
    .trim();
}

/** The comparable words of a title: lower-case letters and digits, accents removed. */
export function titleTokens(title: string): Set<string> {
  const words = plainTitle(title)
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
  return new Set(words);
}

/**
 * Token-set similarity (Dice coefficient of the two word sets): 1 for the same words in any
 * order, 0 when no word is shared or a title is empty.
 */
export function titleSimilarity(a: string, b: string): number {
  const left = titleTokens(a);
  const right = titleTokens(b);
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared++;
  return (2 * shared) / (left.size + right.size);
}
