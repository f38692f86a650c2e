import { createRouter } from "../../lib/create-app.js";
import { legacyStaffAlias } from "../../lib/staff-aliases.js";
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
  .openapi(proposeProtocol, proposeProtocolHandler)
  .openapi(legacyStaffAlias(listReviewQueue), listReviewQueueHandler)
  .openapi(legacyStaffAlias(approveReview), approveReviewHandler)
  .openapi(legacyStaffAlias(rejectReview), rejectReviewHandler)
  .openapi(legacyStaffAlias(proposeProtocol), proposeProtocolHandler);
