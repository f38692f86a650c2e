/**
 * The job projection fed by the experiments events (on the bus: reordered, replayed), the
 * operator's job feed (hard filters, order, pagination, privacy, capacity), RankLabs and who
 * may see it, and the operators' quality metrics. PostgreSQL and PGlite.
 */
import { toJsonString } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { ExperimentStatus } from "@petri/contracts/experiments";
import { JobSchema } from "@petri/contracts/marketplace";
import type { Principal } from "@petri/service-kit";
import fc from "fast-check";
import type { Kysely } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { projectJob } from "../src/app/project-job.js";
import { findJob } from "../src/db/jobs.js";
import type { JobChange } from "../src/domain/jobs/projection.js";
import { storedRequirements } from "./support/jobs.js";
import {
  ENGINES,
  ExperimentStory,
  activeOperator,
  failure,
  fullVerification,
  labProfile,
  marketplaceOn,
  requester,
  START,
  republished,
  staff,
} from "./support/harness.js";

/** A lab doing only ZONE_OF_INHIBITION (no other test's lab does), named `name`. */
function zoneLab(name: string, change: (p: Record<string, any>) => void = () => undefined) {
  return labProfile((p) => {
    p.identity.display_name = name;
    p.capabilities.experiment_types = ["ZONE_OF_INHIBITION"];
    p.commercial_terms.pricing = { ZONE_OF_INHIBITION: { min_usd: 100, typical_usd: 180, max_usd: 250 } };
    p.commercial_terms.turnaround_days = { ZONE_OF_INHIBITION: { standard_days: 5, expedited_days: 3 } };
    change(p);
  });
}
const zoneVerification = fullVerification((r) => (r.competencies_verified = ["ZONE_OF_INHIBITION"]));

const LIFECYCLE = ["pending_review", "open", "claimed", "in_progress", "pending_approval", "completed"];

/** Version `version` of experiment `id` as the projection sees it: first open at version 2. */
function versionChange(id: string, version: number): JobChange {
  return {
    experimentId: id,
    status: LIFECYCLE[(version - 1) % LIFECYCLE.length]!,
    requesterAccountId: "usr_prop",
    title: `v${version}`,
    requirements: storedRequirements({ budget_cents: version * 100 }),
    operatorId: version > 2 ? "op_prop" : null,
    version,
    occurredAt: new Date(Date.UTC(2026, 10, 21, 12, version)),
  };
}

describe.each(ENGINES)("jobs on %s", (engine) => {
  const m = marketplaceOn(engine);
  const admin = staff();

  const story = (owner = requester(), options: ConstructorParameters<typeof ExperimentStory>[1] = {}) =>
    new ExperimentStory(owner.accountId, options, m.clock);

  /** Every job of the caller's feed, walking all pages. */
  async function wholeFeed(caller: Principal, limit = 100) {
    const jobs = [];
    let cursor = "";
    do {
      const page = await m.as(caller).listJobs({ limit, cursor });
      jobs.push(...page.jobs);
      cursor = page.nextCursor;
      expect(page.hasMore).toBe(cursor !== "");
    } while (cursor !== "");
    return jobs;
  }

  describe("projection", () => {
    it("reordered and replayed events leave the state of the newest version and the first open time", async () => {
      const s = story();
      const submitted = s.submit(ExperimentStatus.PENDING_REVIEW);
      await m.clock.advance(60_000);
      const opened = s.open();
      const claimed = s.claim("op_someone");
      const started = s.start();
      await m.deliver(...started, ...claimed);
      expect(await findJob(m.db, s.id)).toMatchObject({ status: "in_progress", version: 4, postedAt: null });
      await m.deliver(...opened, ...submitted, republished(opened[0]!), republished(started[0]!));
      // Opened occurred a minute after the submission (to pending_review): it was first open then.
      expect(await findJob(m.db, s.id)).toMatchObject({
        status: "in_progress",
        operatorId: "op_someone",
        version: 4,
        postedAt: new Date(START.getTime() + 60_000),
      });
    });

    it("keeps no inbox row for an event whose only effect is the projection; outcome counts keep theirs (D365)", async () => {
      const s = story();
      const created = s.submit();
      const claimed = s.claim("op_inbox");
      const started = s.start();
      const results = s.submitResults();
      const approved = s.approve({ rating: 5 });
      await m.deliver(...created, ...claimed, ...started, ...results, ...approved);
      await m.deliver(republished(claimed[0]!), republished(created[1]!));
      expect(await findJob(m.db, s.id)).toMatchObject({ status: "completed", version: 5 });
      const inboxRows = await (m.db as Kysely<any>)
        .selectFrom("inbox")
        .select("event_id")
        .where("consumer", "=", "marketplace-jobs")
        .where(
          "event_id",
          "in",
          [created, claimed, started, results, approved].flat().map((e) => e.id),
        )
        .execute();
      expect(inboxRows.map((row) => row.event_id)).toEqual([approved[0]!.id]);
    });

    it("concurrent changes of one experiment without a consumer transaction lose none (property)", async () => {
      const versions = [1, 2, 3, 4, 5, 6];
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.shuffledSubarray(versions, { minLength: 6, maxLength: 6 }), async (order) => {
          run += 1;
          const id = `exp_concurrent_${run}`;
          await Promise.all(
            order.map((version) => projectJob(m.db, versionChange(id, version), m.clock.now())),
          );
          expect(await findJob(m.db, id)).toMatchObject({
            status: "completed",
            version: 6,
            postedAt: versionChange(id, 2).occurredAt,
          });
        }),
        { numRuns: 10 },
      );
    });

    it("the stored projection equals in-order application for any arrival order (property)", async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 6 }).chain((n) =>
            fc.shuffledSubarray(
              Array.from({ length: n }, (_, i) => i + 1),
              { minLength: n, maxLength: n },
            ),
          ),
          async (order) => {
            run += 1;
            const inOrder = `exp_prop_a${run}`;
            const shuffled = `exp_prop_b${run}`;
            for (const version of [...order].sort((a, b) => a - b))
              await projectJob(m.db, versionChange(inOrder, version), m.clock.now());
            for (const version of [...order, order[0]!])
              await projectJob(m.db, versionChange(shuffled, version), m.clock.now());
            const a = await findJob(m.db, inOrder);
            const b = await findJob(m.db, shuffled);
            expect({ ...b, experimentId: inOrder }).toEqual(a);
          },
        ),
        { numRuns: 15 },
      );
    });
  });

  describe("job feed", () => {
    let lab: Principal;
    let labId: string;

    beforeAll(async () => {
      ({ principal: lab, operatorId: labId } = await activeOperator(m));
    });

    it("offers open jobs the lab qualifies for, best match first, never its own requests", async () => {
      const posted = async (s: ExperimentStory, status = ExperimentStatus.OPEN) => {
        await m.clock.advance(1_000);
        await m.deliver(...s.submit(status));
        return s;
      };
      const good = await posted(story(requester(), { job: { budgetCents: 150_000n } }));
      const equal = await posted(story(requester(), { job: { budgetCents: 150_000n } }));
      const cheap = await posted(story(requester(), { job: { budgetCents: 20_000n } }));
      const wrongType = await posted(story(requester(), { job: { experimentType: "CELL_VIABILITY_IC50" } }));
      const animals = await posted(story(requester(), { job: { needsAnimalSamplesApproval: true } }));
      const equipment = await posted(story(requester(), { job: { equipmentRequired: ["Flow cytometer"] } }));
      const bsl3 = await posted(story(requester(), { job: { bslLevel: "BSL-3" } }));
      const own = await posted(story(lab));
      const reviewing = await posted(story(), ExperimentStatus.PENDING_REVIEW);
      const taken = await posted(story());
      await m.deliver(...taken.claim("op_other"));

      const mine = new Set(
        [good, equal, cheap, wrongType, animals, equipment, bsl3, own, reviewing, taken].map((s) => s.id),
      );
      const feed = (await wholeFeed(lab, 3)).filter((job) => mine.has(job.experimentId));
      expect(feed.map((job) => job.experimentId)).toEqual([good.id, equal.id, cheap.id]);
      expect(feed[0]).toMatchObject({
        title: good.title,
        category: "molecular_biology",
        budgetCents: 150_000n,
        bslLevel: "BSL-1",
        experimentType: "QPCR_EXPRESSION",
        private: false,
        turnaroundPriority: "standard",
      });
      expect(feed[0]!.matchScore).toBe(feed[1]!.matchScore);
      expect(feed[1]!.matchScore).toBeGreaterThan(feed[2]!.matchScore);
      expect(feed[0]!.match!.capability).toBeGreaterThan(0);
    });

    it("hides the title of private and delayed requests behind a neutral one", async () => {
      const ids: Record<string, string> = {};
      for (const privacy of ["private", "delayed_6mo", "delayed_12mo"]) {
        const s = story(requester(), {
          title: "Secret compound XJ-7 against MRSA",
          job: { privacy, experimentType: "MIC_MBC_ASSAY" },
        });
        await m.deliver(...s.submit());
        ids[s.id] = privacy;
      }
      const feed = (await wholeFeed(lab)).filter((job) => job.experimentId in ids);
      expect(feed).toHaveLength(3);
      for (const job of feed) {
        expect(job.title).toBe("Private MIC/MBC request");
        expect(job.private).toBe(true);
        expect(toJsonString(JobSchema, job)).not.toContain("XJ-7");
      }
    });

    it("pages with an opaque cursor: no repeats, no gaps, bounded limits", async () => {
      const all = await wholeFeed(lab, 100);
      const paged = await wholeFeed(lab, 2);
      expect(paged.map((j) => j.experimentId)).toEqual(all.map((j) => j.experimentId));
      const first = await m.as(lab).listJobs({ limit: 2 });
      expect(first.total).toBe(BigInt(all.length));
      expect((await m.as(lab).listJobs({})).jobs.length).toBe(Math.min(20, all.length));
      expect((await failure(m.as(lab).listJobs({ limit: 101 }))).violations).toEqual([
        { field: "limit", code: "invalid_value" },
      ]);
      expect((await failure(m.as(lab).listJobs({ cursor: "abc" }))).violations).toEqual([
        { field: "cursor", code: "invalid_value" },
      ]);
    });

    it("an operator at capacity sees nothing; freeing a slot brings the feed back", async () => {
      const { principal: busy, operatorId: busyId } = await activeOperator(m);
      expect((await m.as(busy).listJobs({})).total).toBeGreaterThan(0n);
      const held: ExperimentStory[] = [];
      for (let i = 0; i < 3; i += 1) {
        const s = story();
        await m.deliver(...s.submit(), ...s.claim(busyId));
        held.push(s);
      }
      expect((await m.as(busy).listJobs({})).total).toBe(0n);
      expect((await m.as(busy).getMyOperator({})).operator?.activeJobs).toBe(3);
      await m.deliver(...held[0]!.start(), ...held[0]!.submitResults());
      expect((await m.as(busy).listJobs({})).total).toBeGreaterThan(0n);
    });

    it("only an active operator has a feed (403 otherwise)", async () => {
      expect((await failure(m.as(requester()).listJobs({}))).code).toBe(Code.PermissionDenied);
      const pending = requester("lab");
      await m.as(pending).submitOperatorProfile({ profileJson: labProfile() });
      expect((await failure(m.as(pending).listJobs({}))).code).toBe(Code.PermissionDenied);
      const { principal, operatorId } = await activeOperator(m);
      await m.as(admin).suspendOperator({ operatorId, reason: "audit" });
      expect((await failure(m.as(principal).listJobs({}))).code).toBe(Code.PermissionDenied);
      expect(labId).toMatch(/^op_/);
    });
  });

  describe("RankLabs", () => {
    it("the requester sees eligible labs by name; staff see every active lab with failed filters", async () => {
      const a = await activeOperator(m, { profile: zoneLab("Zone A"), verification: zoneVerification });
      await activeOperator(m, {
        profile: zoneLab(
          "Zone B",
          (p) =>
            (p.commercial_terms.pricing.ZONE_OF_INHIBITION = {
              min_usd: 400,
              typical_usd: 500,
              max_usd: 600,
            }),
        ),
        verification: zoneVerification,
      });
      const c = await activeOperator(m, {
        profile: zoneLab("Zone C"),
        verification: fullVerification((r) => {
          r.competencies_verified = ["ZONE_OF_INHIBITION"];
          r.max_bsl = "BSL-1";
        }),
      });
      const owner = requester();
      const s = story(owner, {
        job: { experimentType: "ZONE_OF_INHIBITION", bslLevel: "BSL-2", budgetCents: 20_000n },
      });
      await m.deliver(...s.submit());

      const forRequester = await m.as(owner).rankLabs({ experimentId: s.id });
      expect(forRequester.operatorAvailability).toBe("low");
      expect(forRequester.labs.map((l) => [l.labName, l.eligible, l.operatorId])).toEqual([
        ["Zone A", true, ""],
        ["Zone B", true, ""],
      ]);
      expect(forRequester.labs[0]!.score).toBeGreaterThan(forRequester.labs[1]!.score);
      expect(forRequester.labs[0]!.components!.cost).toBe(1);

      const forStaff = await m.as(admin).rankLabs({ experimentId: s.id, limit: 100 });
      expect(forStaff.operatorAvailability).toBe("low");
      expect(forStaff.labs.slice(0, 2).map((l) => l.operatorId)[0]).toBe(a.operatorId);
      const zoneC = forStaff.labs.find((l) => l.operatorId === c.operatorId);
      expect(zoneC).toMatchObject({ labName: "Zone C", eligible: false, failedFilters: ["bsl"] });
      const firstIneligible = forStaff.labs.findIndex((l) => !l.eligible);
      expect(forStaff.labs.slice(firstIneligible).every((l) => !l.eligible)).toBe(true);
      expect(forStaff.labs.some((l) => l.failedFilters.includes("competency"))).toBe(true);

      expect((await m.as(admin).rankLabs({ experimentId: s.id, limit: 1 })).labs).toHaveLength(1);
      expect((await failure(m.as(requester()).rankLabs({ experimentId: s.id }))).code).toBe(Code.NotFound);
      expect((await failure(m.as(a.principal).rankLabs({ experimentId: s.id }))).code).toBe(Code.NotFound);
      expect((await failure(m.as(owner).rankLabs({ experimentId: "exp_unknown" }))).code).toBe(Code.NotFound);
      expect((await failure(m.as(owner).rankLabs({ experimentId: s.id, limit: 500 }))).code).toBe(
        Code.InvalidArgument,
      );
    });
  });

  describe("quality metrics", () => {
    it("follow approvals, disputes and their resolution, whatever the order and however often", async () => {
      const { principal, operatorId } = await activeOperator(m);
      const delivered = async () => {
        const s = story();
        await m.deliver(...s.submit(), ...s.claim(operatorId), ...s.start(), ...s.submitResults());
        return s;
      };
      const quality = async () => (await m.as(principal).getMyOperator({})).operator!.quality!;
      expect(await quality()).toMatchObject({ totalJobsCompleted: 0, averageRating: 0, disputeRate: 0 });

      const one = await delivered();
      const approvedOne = one.approve({ rating: 5, onTime: true });
      await m.deliver(...approvedOne, republished(approvedOne[0]!));
      const two = await delivered();
      await m.deliver(...two.approve({ rating: 3, onTime: false }));
      const three = await delivered();
      await m.deliver(...three.approve({ onTime: true }));
      // Disputed, then resolved for the operator: it does not count against the lab. The
      // resolution arrives first.
      const four = await delivered();
      const disputed = four.raiseDispute();
      const resolved = four.resolve("operator", 0, 50_000);
      await m.deliver(...resolved, ...disputed);
      // Disputed and resolved for the requester: it counts.
      const five = await delivered();
      await m.deliver(...five.raiseDispute(), ...five.resolve("requester", 50_000, 0));

      expect(await quality()).toEqual(
        expect.objectContaining({
          totalJobsCompleted: 3,
          onTimeRate: 2 / 3,
          ratingsCount: 2,
          averageRating: 4,
          disputeRate: 1 / 5,
          rerunRate: 0,
        }),
      );
    });
  });
});
