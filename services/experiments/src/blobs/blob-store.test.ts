import { newId } from "@petri/service-kit";
import { describe, expect, it } from "vitest";

import { assertBlobKey, BlobKeyError, blobKeyFor } from "./blob-store.js";

describe("blob keys", () => {
  it("put a result file under results/<experiment>/<file>", () => {
    const experimentId = newId("exp");
    const fileId = newId("fil");
    const key = blobKeyFor(experimentId, fileId);
    expect(key).toBe(`results/${experimentId}/${fileId}`);
    expect(() => assertBlobKey(key)).not.toThrow();
  });

  it.each<[string, string]>([
    ["../exp", newId("fil")],
    [newId("exp"), "../../etc/passwd"],
    [newId("fil"), newId("fil")],
    [newId("exp"), newId("exp")],
    [`${newId("exp")}/x`, newId("fil")],
    ["", newId("fil")],
    [newId("exp").toUpperCase(), newId("fil")],
  ])("refuse ids that are not an experiment id and a file id: %j, %j", (experimentId, fileId) => {
    expect(() => blobKeyFor(experimentId, fileId)).toThrow(BlobKeyError);
  });

  it.each(["a", "results/exp_1/fil_2", "a/b.c/d_e-f", "x".repeat(512)])("accept the key %j", (key) => {
    expect(() => assertBlobKey(key)).not.toThrow();
  });

  it.each([
    "",
    "x".repeat(513),
    "/etc/passwd",
    "../x",
    "a/../b",
    "a/..b",
    "a//b",
    "a/",
    "./a",
    ".tmp/x",
    "a/.hidden",
    "a\\b",
    "C:/x",
    "a b",
    "a/b\u0000",
    "é",
  ])("refuse the key %j", (key) => {
    expect(() => assertBlobKey(key)).toThrow(BlobKeyError);
  });
});
