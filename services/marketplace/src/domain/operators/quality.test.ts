import { describe, expect, it } from "vitest";
import { NEW_OPERATOR_QUALITY, qualityFromOutcomes } from "./quality.js";

describe("qualityFromOutcomes", () => {
  it("is the new-operator quality with no outcomes", () => {
    expect(
      qualityFromOutcomes({
        completed: 0,
        onTime: 0,
        ratings: 0,
        ratingSum: 0,
        delivered: 0,
        disputesAgainst: 0,
      }),
    ).toEqual(NEW_OPERATOR_QUALITY);
  });

  it("computes rates over approvals and deliveries, and the average of given ratings", () => {
    expect(
      qualityFromOutcomes({
        completed: 4,
        onTime: 3,
        ratings: 2,
        ratingSum: 9,
        delivered: 5,
        disputesAgainst: 1,
      }),
    ).toEqual({
      on_time_rate: 0.75,
      rerun_rate: 0,
      dispute_rate: 0.2,
      average_rating: 4.5,
      total_jobs_completed: 4,
      ratings_count: 2,
    });
  });

  it("keeps rates within 0..1 on inconsistent counts", () => {
    const q = qualityFromOutcomes({
      completed: 1,
      onTime: 3,
      ratings: 0,
      ratingSum: 0,
      delivered: 1,
      disputesAgainst: 2,
    });
    expect([q.on_time_rate, q.dispute_rate]).toEqual([1, 1]);
  });
});
