import { create } from "@bufbuild/protobuf";
import { events } from "@petri/contracts";
import {
  ExperimentOpenedSchema,
  ExperimentSchema,
  ExperimentStatus,
  ExperimentSubmittedSchema,
} from "@petri/contracts/experiments";
import { ReadModelArrivals } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { experimentViewOf, experimentViewSubscription } from "./experiment-views.js";

describe("experimentViewOf", () => {
  it("keeps who requested it, its status name, title, type, request and version, with the public status name and the version", () => {
    const experiment = create(ExperimentSchema, {
      id: "exp_1",
      requesterAccountId: "usr_1",
      status: ExperimentStatus.PENDING_REVIEW,
      title: "T",
      experimentType: "QPCR_EXPRESSION",
      requestJson: '{"a":1}',
      version: 3n,
    });
    expect(experimentViewOf(experiment)).toEqual({
      id: "exp_1",
      requesterAccountId: "usr_1",
      status: "pending_review",
      title: "T",
      experimentType: "QPCR_EXPRESSION",
      requestJson: '{"a":1}',
      version: 3,
    });
    expect(experimentViewOf({ ...experiment, status: ExperimentStatus.DRAFT })?.status).toBe("draft");
  });

  it("ignores an event without an experiment, an id or a known status", () => {
    expect(experimentViewOf(undefined)).toBeUndefined();
    expect(
      experimentViewOf(create(ExperimentSchema, { id: "", status: ExperimentStatus.OPEN })),
    ).toBeUndefined();
    expect(
      experimentViewOf(create(ExperimentSchema, { id: "exp_1", status: ExperimentStatus.UNSPECIFIED })),
    ).toBeUndefined();
  });
});

describe("experimentViewSubscription", () => {
  const handlers = experimentViewSubscription(new ReadModelArrivals()).handlers;
  const submitted = handlers[events.experiments.experimentSubmitted.schema.typeName]!;
  const opened = handlers[events.experiments.experimentOpened.schema.typeName]!;
  const experiment = (status: ExperimentStatus) =>
    create(ExperimentSchema, { id: "exp_1", status, version: 1n });

  it("takes every experiments event, the upsert being idempotent", () => {
    expect(Object.keys(handlers)).toHaveLength(Object.keys(events.experiments).length);
    expect(Object.values(handlers).every((handler) => handler.idempotent)).toBe(true);
  });

  it("leaves a submission that opened the request to the Opened of the same change, and applies one to review", () => {
    const open = create(ExperimentSubmittedSchema, { experiment: experiment(ExperimentStatus.OPEN) });
    const toReview = create(ExperimentSubmittedSchema, {
      experiment: experiment(ExperimentStatus.PENDING_REVIEW),
    });
    expect(submitted.appliesTo?.(open)).toBe(false);
    expect(submitted.appliesTo?.(toReview)).toBe(true);
    expect(
      opened.appliesTo?.(create(ExperimentOpenedSchema, { experiment: experiment(ExperimentStatus.OPEN) })) ??
        true,
    ).toBe(true);
  });
});
