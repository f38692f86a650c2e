import { type Page, type Principal, parsePage } from "@petri/service-kit";
import { listHypotheses } from "../db/hypotheses.js";
import type { Hypothesis } from "../domain/hypothesis.js";
import { hypothesisFilter } from "../domain/listing.js";
import type { ReadingDeps } from "./deps.js";

export interface HypothesisListPage extends Page {
  hypotheses: Hypothesis[];
  total: number;
}

/** The caller's library, newest first, filtered (ARCHIVED hidden unless asked for), offset pages of 1..100 (20). */
export function makeListHypotheses(deps: ReadingDeps) {
  return async function listHypothesesUseCase(
    principal: Principal,
    input: { status: string; experimentType: string; search: string; limit: number; offset: number },
  ): Promise<HypothesisListPage> {
    const filter = hypothesisFilter(input);
    const page = parsePage({ limit: input.limit, offset: input.offset });
    const found = await listHypotheses(deps.db, principal.accountId, filter, page);
    return { ...found, ...page };
  };
}
