import { createRouter } from "../../lib/create-app.js";
import { getMyOperatorHandler, submitOperatorProfileHandler } from "./operator-profile.handlers.js";
import { getMyOperator, submitOperatorProfile } from "./operator-profile.routes.js";

export const operatorProfileRouter = createRouter({ errorPaths: true })
  .openapi(submitOperatorProfile, submitOperatorProfileHandler)
  .openapi(getMyOperator, getMyOperatorHandler);
