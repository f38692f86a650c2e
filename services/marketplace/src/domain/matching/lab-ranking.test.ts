import { describe, expect, it } from "vitest";
import { NOW, job, operator, validProfile } from "../../../test/support/operators.js";
import { rankLabs } from "./lab-ranking.js";
import { rankOperators } from "./score.js";

describe("rankLabs", () => {
  const cheap = validProfile();
  cheap.commercial_terms.pricing.QPCR_EXPRESSION = { min_usd: 100, typical_usd: 200, max_usd: 400 };
  const operators = [
    operator({ id: "op_b" }),
    operator({ id: "op_a", profile: cheap }),
    operator({ id: "op_busy", active_jobs: 3 }),
    operator({ id: "op_paused", status: "paused" }),
  ];
  const j = job({ budget_usd: 500 });

  it("gives requesters the eligible labs, best first, as rankOperators does", () => {
    const ranking = rankLabs(operators, j, NOW, { includeIneligible: false });
    expect(ranking.labs.map((l) => l.operator_id)).toEqual(
      rankOperators(operators, j, NOW).map((m) => m.operator_id),
    );
    expect(ranking.labs.map((l) => l.operator_id)).toEqual(["op_a", "op_b"]);
    expect(ranking.eligibleCount).toBe(2);
    expect(ranking.availability).toBe("low");
  });

  it("gives staff the ineligible labs too, after the eligible ones, with their failed filters", () => {
    const ranking = rankLabs(operators, j, NOW, { includeIneligible: true });
    expect(ranking.labs.map((l) => [l.operator_id, l.eligible])).toEqual([
      ["op_a", true],
      ["op_b", true],
      ["op_busy", false],
      ["op_paused", false],
    ]);
    expect(ranking.labs[2]!.failed_filters.map((f) => f.filter)).toEqual(["capacity"]);
    expect(ranking.labs[3]!.failed_filters.map((f) => f.filter)).toEqual(["operator_status"]);
    expect(ranking.availability).toBe("low");
  });

  it("has availability none without eligible labs", () => {
    expect(rankLabs([], j, NOW, { includeIneligible: true })).toEqual({
      labs: [],
      eligibleCount: 0,
      availability: "none",
    });
  });
});
