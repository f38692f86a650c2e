import { create } from "@bufbuild/protobuf";
import { ExperimentSchema, ExperimentStatus } from "@petri/contracts/experiments";
import { describe, expect, it } from "vitest";
import { experimentViewOf } from "./experiment-views.js";

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
