import { createRouter } from "../../lib/create-app.js";
import {
  getOperatorHandler,
  listOperatorsHandler,
  reinstateOperatorHandler,
  rejectOperatorHandler,
  suspendOperatorHandler,
  verifyOperatorHandler,
} from "./staff-operators.handlers.js";
import {
  getOperator,
  listOperators,
  reinstateOperator,
  rejectOperator,
  suspendOperator,
  verifyOperator,
} from "./staff-operators.routes.js";

export const staffOperatorsRouter = createRouter({ errorPaths: true })
  .openapi(listOperators, listOperatorsHandler)
  .openapi(getOperator, getOperatorHandler)
  .openapi(verifyOperator, verifyOperatorHandler)
  .openapi(rejectOperator, rejectOperatorHandler)
  .openapi(suspendOperator, suspendOperatorHandler)
  .openapi(reinstateOperator, reinstateOperatorHandler);
