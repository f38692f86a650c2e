import { createRouter } from "../../lib/create-app.js";
import { getExperimentPaymentHandler } from "./payments.handlers.js";
import { getExperimentPayment } from "./payments.routes.js";

export const paymentsRouter = createRouter({ errorPaths: true }).openapi(
  getExperimentPayment,
  getExperimentPaymentHandler,
);
