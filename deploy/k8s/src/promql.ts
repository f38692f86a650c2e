/**
 * The metric names and label names a PromQL expression refers to, for checking alerts and
 * dashboards against the families the processes register. A tokeniser, not a parser: it knows
 * enough of PromQL to tell a metric name (an identifier not followed by `(`, not a keyword) from
 * a function, an aggregation, a label in a matcher or in a `by (...)` list, a string, a number or
 * a duration. What it does not understand (a selector without a metric name) it rejects.
 */

export interface Selector {
  metric: string;
  /** Labels its matchers name (`{route!="(unmatched)"}`). */
  matcherLabels: string[];
}

export interface PromqlReferences {
  selectors: Selector[];
  /** Labels of `by`, `without`, `on`, `ignoring`, `group_left` and `group_right` lists. */
  groupingLabels: string[];
}

/** Keywords that are followed by a parenthesised list of label names. */
const LABEL_LIST_KEYWORDS = new Set(["by", "without", "on", "ignoring", "group_left", "group_right"]);
/** Aggregations may be followed by `by (...)` before their arguments: `sum by (a) (x)`. */
const AGGREGATIONS = [
  "sum",
  "min",
  "max",
  "avg",
  "group",
  "stddev",
  "stdvar",
  "count",
  "count_values",
].concat(["bottomk", "topk", "quantile", "limitk", "limit_ratio"]);
const KEYWORDS = new Set([
  ...LABEL_LIST_KEYWORDS,
  ...AGGREGATIONS,
  ...["and", "or", "unless", "offset", "bool", "inf", "nan"],
]);

const TOKEN =
  /\s+|(?<string>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`)|(?<range>\[[^\]]*\])|(?<variable>\$\{?\w+\}?)|(?<number>\d[\w.]*|\.\d\w*)|(?<ident>[A-Za-z_:][\w:]*)|(?<punct>=~|!~|!=|==|<=|>=|[{}(),=<>+\-*/%^@])/y;

interface Token {
  kind: "string" | "range" | "variable" | "number" | "ident" | "punct";
  text: string;
}

function tokenise(expr: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expr.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(expr);
    if (!match) throw new Error(`PromQL: cannot read ${JSON.stringify(expr.slice(at, at + 20))} in ${expr}`);
    const kind = Object.entries(match.groups!).find(([, text]) => text !== undefined)?.[0] as Token["kind"];
    if (kind) tokens.push({ kind, text: match[0] });
  }
  return tokens;
}

export function promqlReferences(expr: string): PromqlReferences {
  const tokens = tokenise(expr);
  const selectors: Selector[] = [];
  const groupingLabels: string[] = [];
  const isPunct = (i: number, text: string) => tokens[i]?.kind === "punct" && tokens[i]!.text === text;

  /** Reads `( a, b )` starting at i; returns the index after `)`. */
  const readLabelList = (i: number, into: string[]): number => {
    let j = i + 1;
    for (; j < tokens.length && !isPunct(j, ")"); j++)
      if (tokens[j]!.kind === "ident") into.push(tokens[j]!.text);
    return j + 1;
  };
  /** Reads `{ label op "value", ... }` starting at i; returns the index after `}`. */
  const readMatchers = (i: number, into: string[]): number => {
    let j = i + 1;
    for (; j < tokens.length && !isPunct(j, "}"); j++)
      if (tokens[j]!.kind === "ident") into.push(tokens[j]!.text);
    return j + 1;
  };

  for (let i = 0; i < tokens.length;) {
    const token = tokens[i]!;
    if (token.kind === "punct" && token.text === "{")
      throw new Error(`PromQL: a selector without a metric name cannot be checked: ${expr}`);
    if (token.kind !== "ident") {
      i++;
      continue;
    }
    const word = token.text;
    if (LABEL_LIST_KEYWORDS.has(word.toLowerCase())) {
      i = isPunct(i + 1, "(") ? readLabelList(i + 1, groupingLabels) : i + 1;
    } else if (KEYWORDS.has(word.toLowerCase()) || isPunct(i + 1, "(")) {
      i++; // a keyword, or a function or aggregation (its arguments are read as they come)
    } else {
      const selector: Selector = { metric: word, matcherLabels: [] };
      selectors.push(selector);
      i = isPunct(i + 1, "{") ? readMatchers(i + 1, selector.matcherLabels) : i + 1;
    }
  }
  return { selectors, groupingLabels };
}
