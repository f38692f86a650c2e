import type { ServiceImpl } from "@connectrpc/connect";
import type { ExperimentsService } from "@petri/contracts/experiments";
import { disputesRpc } from "./disputes-rpc.js";
import { operatorRpc } from "./operator-rpc.js";
import { requestsRpc } from "./requests-rpc.js";
import { resultsRpc } from "./results-rpc.js";
import type { ExperimentsUseCases } from "./use-cases.js";

export { EXPERIMENTS_AUDIENCES } from "./audiences.js";
export type { ExperimentsUseCases } from "./use-cases.js";

/**
 * The ExperimentsService implementation, composed from its areas (requests, operator work,
 * results, disputes); `satisfies` makes a procedure missing from every area a type error.
 */
export function createExperimentsRpc(useCases: ExperimentsUseCases): ServiceImpl<typeof ExperimentsService> {
  return {
    ...requestsRpc(useCases),
    ...operatorRpc(useCases),
    ...resultsRpc(useCases),
    ...disputesRpc(useCases),
  } satisfies ServiceImpl<typeof ExperimentsService>;
}
