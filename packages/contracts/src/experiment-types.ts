/**
 * The eight experiment types (docs/intake-model.md), shared by every service and the gateway.
 * The list is petri.experiments.v1.ExperimentType's (./vocabulary.ts); services and the
 * gateway call a type by its REST spelling.
 */
export { EXPERIMENT_TYPES, type ExperimentTypeName as ExperimentType } from "./vocabulary.js";
