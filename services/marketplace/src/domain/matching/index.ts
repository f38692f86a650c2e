export type { JobRequirements } from "../operators/job.js";
export * from "./score.js";
export * from "./availability.js";
export * from "./lab-ranking.js";
