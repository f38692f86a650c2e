import { describe, expect, it } from "vitest";
import { caseAlternatives, parseDockerfile } from "./dockerfile.js";

const sample = `# syntax=docker/dockerfile:1
ARG V=1

FROM --platform=$BUILDPLATFORM node:20 AS build
ARG SERVICE
RUN case "$SERVICE" in \\
      a|b-c|d) ;; \\
      *) exit 1 ;; \\
    esac
# a comment
COPY . .

FROM scratch
USER 65532:65532
`;

describe("parseDockerfile", () => {
  it("splits stages, joins continuations and drops comments", () => {
    const parsed = parseDockerfile(sample);
    expect(parsed.preamble).toEqual([{ keyword: "ARG", args: "V=1" }]);
    expect(parsed.stages.map((stage) => [stage.image, stage.name])).toEqual([
      ["node:20", "build"],
      ["scratch", undefined],
    ]);
    expect(parsed.stages[0]!.instructions.map((i) => i.keyword)).toEqual(["ARG", "RUN", "COPY"]);
    expect(parsed.stages[1]!.instructions).toEqual([{ keyword: "USER", args: "65532:65532" }]);
  });

  it("reads the accepted values of a case statement over a build argument", () => {
    const [build] = parseDockerfile(sample).stages;
    expect(caseAlternatives(build!, "SERVICE")).toEqual(["a", "b-c", "d"]);
    expect(caseAlternatives(build!, "OTHER")).toEqual([]);
  });
});
