import { create } from "@bufbuild/protobuf";
import { ExperimentSchema, ExperimentStatus } from "@petri/contracts/experiments";
import { describe, expect, it } from "vitest";
import { experimentViewOf } from "./experiment-view.js";

describe("experimentViewOf", () => {
  it("keeps what translating needs, with the public status name and the version", () => {
    const experiment = create(ExperimentSchema, {
      id: "exp_1",
      requesterAccountId: "usr_1",
      status: ExperimentStatus.IN_PROGRESS,
      requestJson: '{"a":1}',
      version: 4n,
    });
    expect(experimentViewOf(experiment)).toEqual({
      id: "exp_1",
      requesterAccountId: "usr_1",
      status: "in_progress",
      requestJson: '{"a":1}',
      version: 4,
    });
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
