import { describe, expect, it } from "vitest";
import { NOW, operator } from "../../../test/support/operators.js";
import { feedPage, feedTitle, isPrivateJob, rankJobsFor } from "./feed.js";
import type { JobRecord } from "./projection.js";
import { jobRecord, storedRequirements } from "../../../test/support/jobs.js";

const at = (day: number) => new Date(Date.UTC(2026, 10, day, 9));

describe("feed titles", () => {
  it("shows the title of an open request and a neutral one otherwise", () => {
    expect(feedTitle(jobRecord())).toBe("Expression of GENE1 under drug X");
    for (const privacy of ["private", "delayed_6mo", "delayed_12mo"]) {
      const job = jobRecord({
        requirements: storedRequirements({ privacy, experiment_type: "MIC_MBC_ASSAY" }),
      });
      expect(isPrivateJob(job)).toBe(true);
      expect(feedTitle(job)).toBe("Private MIC/MBC request");
    }
    expect(
      feedTitle(
        jobRecord({ requirements: storedRequirements({ privacy: "private", experiment_type: "NEW_TYPE" }) }),
      ),
    ).toBe("Private experiment request");
  });
});

describe("rankJobsFor", () => {
  const lab = operator();

  it("offers open, matchable jobs the operator qualifies for, best score first", () => {
    const jobs: JobRecord[] = [
      // Budget below the lab's band: lower cost fit.
      jobRecord({ experimentId: "exp_cheap", requirements: storedRequirements({ budget_cents: 20_000 }) }),
      jobRecord({ experimentId: "exp_good" }),
      jobRecord({ experimentId: "exp_claimed", status: "claimed" }),
      jobRecord({ experimentId: "exp_bsl3", requirements: storedRequirements({ bsl_level: "BSL-3" }) }),
      jobRecord({
        experimentId: "exp_unknown",
        requirements: storedRequirements({ experiment_type: "NEW_TYPE" }),
      }),
      jobRecord({
        experimentId: "exp_cell",
        requirements: storedRequirements({ experiment_type: "CELL_VIABILITY_IC50" }),
      }),
      jobRecord({ experimentId: "exp_never_open", postedAt: null }),
    ];
    const ranked = rankJobsFor(lab, jobs, NOW);
    expect(ranked.map((r) => r.job.experimentId)).toEqual(["exp_good", "exp_cheap"]);
    expect(ranked[0]!.match.score).toBeGreaterThan(ranked[1]!.match.score);
  });

  it("orders equal scores by posted_at, then experiment id", () => {
    const jobs = [
      jobRecord({ experimentId: "exp_c", postedAt: at(19) }),
      jobRecord({ experimentId: "exp_b", postedAt: at(18) }),
      jobRecord({ experimentId: "exp_a", postedAt: at(19) }),
    ];
    expect(rankJobsFor(lab, jobs, NOW).map((r) => r.job.experimentId)).toEqual(["exp_b", "exp_a", "exp_c"]);
  });

  it("leaves nothing for an operator at capacity", () => {
    expect(rankJobsFor(operator({ active_jobs: 3 }), [jobRecord()], NOW)).toEqual([]);
  });
});

describe("feedPage", () => {
  const jobs = Array.from({ length: 7 }, (_, i) =>
    jobRecord({ experimentId: `exp_${i}`, postedAt: at(10 + (i % 3)) }),
  );
  const ranked = rankJobsFor(operator(), jobs, NOW);

  it("walks the whole feed in pages without repeats or gaps", () => {
    const seen: string[] = [];
    let page = feedPage(ranked, 3);
    seen.push(...page.items.map((r) => r.job.experimentId));
    while (page.hasMore) {
      expect(page.total).toBe(7);
      page = feedPage(ranked, 3, page.next);
      seen.push(...page.items.map((r) => r.job.experimentId));
    }
    expect(seen).toEqual(ranked.map((r) => r.job.experimentId));
    expect(page.next).toBeUndefined();
  });

  it("an item that left the feed does not shift the next page", () => {
    const first = feedPage(ranked, 3);
    const without = ranked.filter((r) => r.job.experimentId !== first.items[0]!.job.experimentId);
    expect(feedPage(without, 3, first.next).items).toEqual(feedPage(ranked, 3, first.next).items);
  });
});
