/**
 * What the experiments service knows of a library hypothesis: the hypotheses service's
 * HypothesisSaved events, newest version kept (hypothesis_views, D349). Enough to build an
 * experiment request from it and to decide who may.
 */
export type JsonObject = Record<string, unknown>;

export interface HypothesisView {
  id: string;
  ownerAccountId: string;
  /** "DRAFT", "USED" or "ARCHIVED". */
  status: string;
  title: string;
  statement: string;
  nullHypothesis: string | null;
  experimentType: string | null;
  /** The partial experiment request saved with the hypothesis. */
  intakeDraft: JsonObject | null;
  version: number;
}

/** Only the owner may make an experiment of a hypothesis; anyone else is told it does not exist. */
export function mayConvert(accountId: string, view: Pick<HypothesisView, "ownerAccountId">): boolean {
  return view.ownerAccountId === accountId;
}
