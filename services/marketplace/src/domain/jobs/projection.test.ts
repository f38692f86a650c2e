import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type JobChange, type JobRecord, applyJobChange } from "./projection.js";
import { storedRequirements } from "../../../test/support/jobs.js";

const STATUSES = [
  "pending_review",
  "open",
  "claimed",
  "in_progress",
  "pending_approval",
  "completed",
  "disputed",
];

function change(
  version: number,
  status: string,
  minute: number,
  overrides: Partial<JobChange> = {},
): JobChange {
  return {
    experimentId: "exp_1",
    status,
    requesterAccountId: "usr_1",
    title: `title v${version}`,
    requirements: storedRequirements({ budget_cents: 1_000 * version }),
    operatorId: status === "open" || status === "pending_review" ? null : "op_1",
    version,
    occurredAt: new Date(Date.UTC(2026, 10, 21, 12, minute)),
    ...overrides,
  };
}

const applyAll = (changes: readonly JobChange[]) =>
  changes.reduce<JobRecord | undefined>((record, c) => applyJobChange(record, c), undefined);

describe("applyJobChange", () => {
  it("keeps the newest version's state and the first open time", () => {
    const record = applyAll([change(1, "pending_review", 0), change(2, "open", 5), change(3, "claimed", 9)]);
    expect(record).toMatchObject({
      status: "claimed",
      title: "title v3",
      operatorId: "op_1",
      version: 3,
      postedAt: new Date(Date.UTC(2026, 10, 21, 12, 5)),
    });
  });

  it("ignores a stale event's state but still learns an earlier open time from it", () => {
    const claimed = applyAll([change(3, "claimed", 9)]);
    expect(claimed?.postedAt).toBeNull();
    const late = applyJobChange(claimed, change(2, "open", 5));
    expect(late).toMatchObject({
      status: "claimed",
      version: 3,
      postedAt: new Date(Date.UTC(2026, 10, 21, 12, 5)),
    });
  });

  it("returns the same record when an event changes nothing", () => {
    const record = applyAll([change(2, "open", 5)]);
    expect(applyJobChange(record, change(2, "open", 5))).toBe(record);
    expect(applyJobChange(record, change(1, "pending_review", 0))).toBe(record);
  });

  it("any arrival order, with replays, gives the record of in-order application (property)", () => {
    const history = fc
      .array(fc.tuple(fc.constantFrom(...STATUSES), fc.integer({ min: 0, max: 3 })), {
        minLength: 1,
        maxLength: 12,
      })
      .map((steps) => {
        // Versions increase; some changes record two events of one version (submitted + opened).
        const changes: JobChange[] = [];
        let minute = 0;
        steps.forEach(([status, twins], index) => {
          minute += 1 + twins;
          const c = change(index + 1, status, minute);
          changes.push(c);
          if (twins === 0) changes.push({ ...c });
        });
        return changes;
      });
    fc.assert(
      fc.property(
        history.chain((changes) =>
          fc.tuple(
            fc.constant(changes),
            fc.shuffledSubarray(changes, { minLength: changes.length, maxLength: changes.length }),
            fc.array(fc.integer({ min: 0, max: changes.length - 1 }), { maxLength: 5 }),
          ),
        ),
        ([inOrder, shuffled, replays]) => {
          const arrived = [...shuffled, ...replays.map((i) => shuffled[i]!)];
          expect(applyAll(arrived)).toEqual(applyAll(inOrder));
        },
      ),
      { numRuns: 500 },
    );
  });
});
