import fc from "fast-check";
import { describe, expect, it } from "vitest";

import type { Operator, QualityMetrics } from "../operators/index.js";
import { job, NOW, operator, validProfile } from "../../../test/support/operators.js";
import {
  availabilityForJob,
  availabilityFromCount,
  OPERATOR_AVAILABILITY_THRESHOLDS,
} from "./availability.js";
import {
  costFit,
  costFitFor,
  MATCH_WEIGHTS,
  QUALITY_PRIOR,
  qualityFit,
  rankOperators,
  scoreMatch,
  turnaroundFit,
  turnaroundFitFor,
} from "./score.js";

const metricsArb = fc.record({
  on_time_rate: fc.double({ min: 0, max: 1, noNaN: true }),
  rerun_rate: fc.double({ min: 0, max: 1, noNaN: true }),
  dispute_rate: fc.double({ min: 0, max: 1, noNaN: true }),
  average_rating: fc.option(fc.double({ min: 1, max: 5, noNaN: true }), { nil: null }),
  total_jobs_completed: fc.integer({ min: 0, max: 500 }),
});

function withTerms(
  o: Operator,
  days: { standard_days: number; expedited_days: number },
  band?: { min_usd: number; typical_usd: number; max_usd: number },
): Operator {
  const profile = structuredClone(o.profile);
  profile.commercial_terms.turnaround_days.QPCR_EXPRESSION = days;
  if (band) profile.commercial_terms.pricing.QPCR_EXPRESSION = band;
  return { ...o, profile };
}

describe("scoreMatch", () => {
  it("weights sum to 100 and the score is their weighted sum of fits", () => {
    expect(Object.values(MATCH_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
    const m = scoreMatch(operator(), job(), NOW);
    expect(m.eligible).toBe(true);
    expect(m.failed_filters).toEqual([]);
    const expected =
      35 * m.components.capability +
      25 * m.components.turnaround +
      25 * m.components.cost +
      15 * m.components.quality;
    expect(m.score).toBeCloseTo(Math.round(expected * 10) / 10, 5);
    // Fixture: competency verified, no tags or equipment asked, 10 days <= 14, budget 1000 >= typical 800.
    expect(m.components).toMatchObject({ capability: 1, turnaround: 1, cost: 1 });
  });

  it("reports ineligibility with the failed filters but still scores", () => {
    const m = scoreMatch(operator({ active_jobs: 3 }), job(), NOW);
    expect(m.eligible).toBe(false);
    expect(m.failed_filters.map((f) => f.filter)).toEqual(["capacity"]);
    expect(m.score).toBeGreaterThan(0);
  });

  it("capability: tag overlap, instruments over plain equipment, custom protocols", () => {
    const base = scoreMatch(operator(), job(), NOW).components.capability;
    expect(scoreMatch(operator(), job({ menu_tags: ["qpcr_taqman"] }), NOW).components.capability).toBe(base);
    expect(
      scoreMatch(operator(), job({ menu_tags: ["qpcr_taqman", "sybr"] }), NOW).components.capability,
    ).toBeCloseTo(0.9);
    expect(
      scoreMatch(operator(), job({ equipment_required: ["QuantStudio 5"] }), NOW).components.capability,
    ).toBe(1);
    expect(
      scoreMatch(operator(), job({ equipment_required: ["Incubator"] }), NOW).components.capability,
    ).toBeCloseTo(0.925);
    const profile = validProfile();
    profile.capabilities.custom_protocol_capable = false;
    expect(
      scoreMatch(operator({ profile }), job({ custom_protocol: true }), NOW).components.capability,
    ).toBeCloseTo(0.85);
    expect(
      scoreMatch(operator(), job({ experiment_type: "CELL_VIABILITY_IC50" }), NOW).components.capability,
    ).toBeCloseTo(0.5);
  });

  it("turnaround: uses expedited days for expedited/urgent and the nearer of deadline and desired days", () => {
    const o = operator(); // QPCR: 10 standard, 5 expedited
    expect(turnaroundFit(o, job({ desired_turnaround_days: 8 }), NOW)).toBeCloseTo(0.8);
    expect(turnaroundFit(o, job({ desired_turnaround_days: 8, priority: "expedited" }), NOW)).toBe(1);
    expect(turnaroundFit(o, job({ desired_turnaround_days: 30, deadline: "2026-11-26" }), NOW)).toBeCloseTo(
      0.5,
    );
    expect(
      turnaroundFit(o, job({ desired_turnaround_days: undefined, priority: "urgent" }), NOW),
    ).toBeCloseTo(0.6);
    expect(turnaroundFit(o, job({ deadline: "2026-11-01" }), NOW)).toBe(0);
  });

  it("cost: full inside the budget, lower as the band rises above it, neutral without a budget", () => {
    const o = operator(); // QPCR band 400 / 800 / 1500
    expect(costFit(o, job({ budget_usd: 800 }))).toBe(1);
    expect(costFit(o, job({ budget_usd: 600 }))).toBeCloseTo(0.8);
    expect(costFit(o, job({ budget_usd: 400 }))).toBeCloseTo(0.6);
    expect(costFit(o, job({ budget_usd: 200 }))).toBeCloseTo(0.15);
    expect(costFit(o, job({ budget_usd: undefined }))).toBe(1);
    const minOrder = structuredClone(o.profile);
    minOrder.commercial_terms.minimum_order_usd = 800;
    expect(costFit({ ...o, profile: minOrder }, job({ budget_usd: 600 }))).toBeCloseTo(0.3375);
  });

  it("quality: a new lab gets the neutral prior; proven labs move away from it", () => {
    const fresh: QualityMetrics = {
      on_time_rate: 0,
      rerun_rate: 0,
      dispute_rate: 0,
      average_rating: null,
      total_jobs_completed: 0,
    };
    expect(qualityFit(fresh)).toBeCloseTo(QUALITY_PRIOR.value);
    const perfect = {
      on_time_rate: 1,
      rerun_rate: 0,
      dispute_rate: 0,
      average_rating: 5,
      total_jobs_completed: 95,
    };
    expect(qualityFit(perfect)).toBeCloseTo((95 + 5 * 0.7) / 100);
    const poor = {
      on_time_rate: 0.2,
      rerun_rate: 0.5,
      dispute_rate: 0.5,
      average_rating: 2,
      total_jobs_completed: 50,
    };
    expect(qualityFit(poor)).toBeLessThan(QUALITY_PRIOR.value);
  });
});

describe("scoring monotonicity (properties)", () => {
  it("better quality metrics never lower the score", () => {
    fc.assert(
      fc.property(
        metricsArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 4, noNaN: true }),
        (m, dOnTime, dDispute, dRerun, dRating) => {
          const better: QualityMetrics = {
            ...m,
            on_time_rate: Math.min(1, m.on_time_rate + dOnTime),
            dispute_rate: Math.max(0, m.dispute_rate - dDispute),
            rerun_rate: Math.max(0, m.rerun_rate - dRerun),
            average_rating: m.average_rating === null ? null : Math.min(5, m.average_rating + dRating),
          };
          expect(qualityFit(better)).toBeGreaterThanOrEqual(qualityFit(m) - 1e-12);
          const a = scoreMatch(operator({ quality: m }), job(), NOW).score;
          const b = scoreMatch(operator({ quality: better }), job(), NOW).score;
          expect(b).toBeGreaterThanOrEqual(a);
        },
      ),
    );
  });

  it("a lower budget never raises cost fit, and below the band it is strictly lower", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 20000 }),
        fc.integer({ min: 0, max: 20000 }),
        (min, spread, b1, b2) => {
          const typical = min + spread;
          const [lo, hi] = b1 <= b2 ? [b1, b2] : [b2, b1];
          const fLo = costFitFor(lo, min, typical);
          const fHi = costFitFor(hi, min, typical);
          expect(fLo).toBeLessThanOrEqual(fHi + 1e-12);
          if (lo < hi && lo < min) expect(fLo).toBeLessThan(fHi);
          expect(costFitFor(typical, min, typical)).toBe(1);
          expect(fLo).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it("a longer operator turnaround never raises turnaround fit or the score", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 90 }),
        (days, extra, desired) => {
          const j = job({ desired_turnaround_days: desired });
          const fast = withTerms(operator(), { standard_days: days, expedited_days: days });
          const slow = withTerms(operator(), { standard_days: days + extra, expedited_days: days });
          const fFast = turnaroundFit(fast, j, NOW);
          const fSlow = turnaroundFit(slow, j, NOW);
          expect(fSlow).toBeLessThanOrEqual(fFast);
          if (extra > 0 && desired > 0 && days + extra > desired) expect(fSlow).toBeLessThan(fFast);
          expect(scoreMatch(slow, j, NOW).score).toBeLessThanOrEqual(scoreMatch(fast, j, NOW).score);
        },
      ),
    );
    expect(turnaroundFitFor(20, 10)).toBeLessThan(turnaroundFitFor(15, 10));
  });

  it("a budget below the band lowers the score against the same lab", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 399 }), (budget) => {
        const inside = scoreMatch(operator(), job({ budget_usd: 1000 }), NOW);
        const below = scoreMatch(operator(), job({ budget_usd: budget }), NOW);
        expect(below.components.cost).toBeLessThan(inside.components.cost);
        expect(below.score).toBeLessThan(inside.score);
      }),
    );
  });

  it("scores stay within 0..100 and fits within 0..1", () => {
    fc.assert(
      fc.property(
        metricsArb,
        fc.option(fc.integer({ min: 0, max: 5000 }), { nil: undefined }),
        fc.integer({ min: 0, max: 60 }),
        (m, budget, desired) => {
          const s = scoreMatch(
            operator({ quality: m }),
            job({ budget_usd: budget, desired_turnaround_days: desired }),
            NOW,
          );
          expect(s.score).toBeGreaterThanOrEqual(0);
          expect(s.score).toBeLessThanOrEqual(100);
          for (const v of Object.values(s.components)) {
            expect(v).toBeGreaterThanOrEqual(0);
            expect(v).toBeLessThanOrEqual(1);
          }
        },
      ),
    );
  });
});

describe("rankOperators", () => {
  it("keeps eligible operators only, best score first", () => {
    const good = operator({ id: "op-good" });
    const newLab = operator({
      id: "op-new",
      quality: {
        on_time_rate: 0,
        rerun_rate: 0,
        dispute_rate: 0,
        average_rating: null,
        total_jobs_completed: 0,
      },
    });
    const slow = withTerms(operator({ id: "op-slow" }), { standard_days: 28, expedited_days: 14 });
    const full = operator({ id: "op-full", active_jobs: 3 });
    const ranked = rankOperators([slow, full, newLab, good], job(), NOW);
    expect(ranked.map((r) => r.operator_id)).toEqual(["op-good", "op-new", "op-slow"]);
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
  });

  it("breaks equal scores by operator id", () => {
    const ids = ["op-c", "op-a", "op-b"];
    const ranked = rankOperators(
      ids.map((id) => operator({ id })),
      job(),
      NOW,
    );
    expect(ranked.map((r) => r.operator_id)).toEqual(["op-a", "op-b", "op-c"]);
    expect(new Set(ranked.map((r) => r.score)).size).toBe(1);
  });

  it("is ordered for any population (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 4 }), metricsArb), { maxLength: 12 }),
        (rows) => {
          const ranked = rankOperators(
            rows.map(([id, quality]) => operator({ id, quality })),
            job(),
            NOW,
          );
          for (let i = 1; i < ranked.length; i++) {
            const [a, b] = [ranked[i - 1]!, ranked[i]!];
            expect(a.score > b.score || (a.score === b.score && a.operator_id <= b.operator_id)).toBe(true);
          }
        },
      ),
    );
  });
});

describe("availabilityFromCount", () => {
  it.each([
    [0, "none"],
    [1, "low"],
    [2, "low"],
    [3, "medium"],
    [7, "medium"],
    [8, "high"],
    [50, "high"],
    [-1, "none"],
    [Number.NaN, "none"],
  ] as const)("%d qualified operators -> %s", (n, level) => {
    expect(availabilityFromCount(n)).toBe(level);
  });

  it("uses the experiments estimator's thresholds", () => {
    expect(OPERATOR_AVAILABILITY_THRESHOLDS).toEqual({ high: 8, medium: 3, low: 1 });
  });

  it("counts only qualified operators for a job", () => {
    const ops = [
      operator({ id: "a" }),
      operator({ id: "b" }),
      operator({ id: "c" }),
      operator({ id: "d", status: "paused" }),
    ];
    expect(availabilityForJob(ops, job(), NOW)).toBe("medium");
    expect(availabilityForJob(ops, job({ experiment_type: "CUSTOM" }), NOW)).toBe("none");
  });
});
