/** The operator as matching sees it: profile, status, staff verification, metrics, current load. */
import type { OperatorStatusName } from "@petri/contracts/vocabulary";
import type { OperatorProfile } from "./profile.js";
import type { QualityMetrics } from "./quality.js";
import type { VerificationRecord } from "./verification.js";

export interface Operator {
  id: string;
  status: OperatorStatusName;
  profile: OperatorProfile;
  /** null until staff verify the operator. */
  verification: VerificationRecord | null;
  quality: QualityMetrics;
  /** Jobs claimed or in progress right now. */
  active_jobs: number;
}
