/**
 * The job projection: the marketplace's copy of an experiment as the job feed, lab ranking
 * and payment access need it, built from the experiments service's events. Every event carries
 * the whole experiment and its aggregate version, so the projection keeps the state of the
 * newest version seen and ignores older ones, whatever order the events arrive in, and a
 * replay changes nothing. One field is not a plain state: `postedAt`, the first time the
 * experiment was seen open, is the earliest open event's time, which is also order-free.
 * Applying any permutation of a set of events (with duplicates) gives the same record as
 * applying them in order (tested as a property).
 */
import type { StoredJobRequirements } from "./requirements.js";

export interface JobState {
  experimentId: string;
  /** The experiment's status (draft, pending_review, open, claimed, ...). */
  status: string;
  requesterAccountId: string;
  title: string;
  requirements: StoredJobRequirements;
  /** The claiming operator ("op_..."), null before a claim. */
  operatorId: string | null;
  /** The experiment's aggregate version. */
  version: number;
}

export interface JobRecord extends JobState {
  /** When it was first seen open; null while it never was. */
  postedAt: Date | null;
}

/** One event's view of the experiment, and when the event occurred. */
export interface JobChange extends JobState {
  occurredAt: Date;
}

function earlier(a: Date | null, b: Date | null): Date | null {
  if (a === null) return b;
  if (b === null) return a;
  return b.getTime() < a.getTime() ? b : a;
}

function stateOf(change: JobChange): JobState {
  return {
    experimentId: change.experimentId,
    status: change.status,
    requesterAccountId: change.requesterAccountId,
    title: change.title,
    requirements: change.requirements,
    operatorId: change.operatorId,
    version: change.version,
  };
}

/** The version an experiment is created at (a draft records no event until submitted, later). */
const FIRST_EXPERIMENT_VERSION = 1;

/** True for a change of the experiment's first version: usually the first event its job sees. */
export function isFirstVersion(change: JobChange): boolean {
  return change.version === FIRST_EXPERIMENT_VERSION;
}

/** The record after one event (the same record object when nothing changes). */
export function applyJobChange(current: JobRecord | undefined, change: JobChange): JobRecord {
  const openedAt = change.status === "open" ? change.occurredAt : null;
  if (current === undefined) return { ...stateOf(change), postedAt: openedAt };
  const postedAt = earlier(current.postedAt, openedAt);
  if (change.version > current.version) return { ...stateOf(change), postedAt };
  if (postedAt === current.postedAt) return current;
  return { ...current, postedAt };
}
