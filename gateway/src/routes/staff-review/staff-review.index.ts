import { createRouter } from "../../lib/create-app.js";
import {
  approveReviewHandler,
  listReviewQueueHandler,
  proposeProtocolHandler,
  rejectReviewHandler,
} from "./staff-review.handlers.js";
import { approveReview, listReviewQueue, proposeProtocol, rejectReview } from "./staff-review.routes.js";

export const staffReviewRouter = createRouter({ errorPaths: true })
  .openapi(listReviewQueue, listReviewQueueHandler)
  .openapi(approveReview, approveReviewHandler)
  .openapi(rejectReview, rejectReviewHandler)
  .openapi(proposeProtocol, proposeProtocolHandler);
