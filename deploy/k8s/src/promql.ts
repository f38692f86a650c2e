/**
 * The metric names and label names a PromQL expression refers to, for checking alerts and
 * dashboards against the families the processes register. Parsed with Prometheus' own grammar
 * (@prometheus-io/lezer-promql, the parser of Prometheus' query editor), so a syntax error
 * fails too; a selector without a metric name (`{__name__=~"..."}`) cannot be checked and is
 * rejected.
 */
import { parser } from "@prometheus-io/lezer-promql";
import type { SyntaxNode } from "@lezer/common";

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

export function promqlReferences(expr: string): PromqlReferences {
  const text = (node: SyntaxNode) => expr.slice(node.from, node.to);
  const selectors = new Map<number, Selector>();
  const groupingLabels: string[] = [];
  const selectorOf = (node: SyntaxNode): Selector => {
    const known = selectors.get(node.from);
    if (known) return known;
    const name = node.getChild("Identifier");
    if (!name) throw new Error(`PromQL: a selector without a metric name cannot be checked: ${expr}`);
    const selector: Selector = { metric: text(name), matcherLabels: [] };
    selectors.set(node.from, selector);
    return selector;
  };

  parser.parse(expr).iterate({
    enter(ref) {
      const node = ref.node;
      if (ref.type.isError)
        throw new Error(
          `PromQL: syntax error at ${JSON.stringify(expr.slice(ref.from, ref.from + 20))} in ${expr}`,
        );
      if (ref.name === "VectorSelector") selectorOf(node);
      if (ref.name !== "LabelName") return;
      if (node.parent?.name === "GroupingLabels") groupingLabels.push(text(node));
      else if (node.parent?.name === "UnquotedLabelMatcher") {
        let selector = node.parent.parent;
        while (selector && selector.name !== "VectorSelector") selector = selector.parent;
        if (selector) selectorOf(selector).matcherLabels.push(text(node));
      }
    },
  });
  return { selectors: [...selectors.values()], groupingLabels };
}
