import { inspect } from "node:util";

import { ConfigError, loadConfig } from "@petri/service-kit";
import { describe, expect, it } from "vitest";

import { blobStoreConfigSchema, createBlobStore, describeBlobStoreConfig } from "./config.js";
import { FsBlobStore } from "./fs-blob-store.js";
import { S3BlobStore } from "./s3-blob-store.js";

const SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

const s3Env = {
  PETRI_BLOB_STORE: "s3",
  PETRI_S3_ENDPOINT: "http://127.0.0.1:9000",
  PETRI_S3_REGION: "us-east-1",
  PETRI_S3_BUCKET: "petri-results",
  PETRI_S3_ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE",
  PETRI_S3_SECRET_ACCESS_KEY: SECRET,
};

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(blobStoreConfigSchema, env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("blob store configuration", () => {
  it("defaults to the file system under the data directory", () => {
    expect(loadConfig(blobStoreConfigSchema, {})).toEqual({ kind: "fs", dir: ".petri/blobs" });
    expect(loadConfig(blobStoreConfigSchema, { PETRI_DATA_DIR: "/var/petri" })).toEqual({
      kind: "fs",
      dir: "/var/petri/blobs",
    });
    expect(loadConfig(blobStoreConfigSchema, { PETRI_BLOB_DIR: "/srv/blobs", PETRI_DATA_DIR: "/x" })).toEqual(
      {
        kind: "fs",
        dir: "/srv/blobs",
      },
    );
  });

  it("reads S3 settings, with path style by default for a custom endpoint only", () => {
    const config = loadConfig(blobStoreConfigSchema, s3Env);
    expect(config).toMatchObject({
      kind: "s3",
      endpoint: "http://127.0.0.1:9000",
      region: "us-east-1",
      bucket: "petri-results",
      accessKeyId: "AKIAIOSFODNN7EXAMPLE",
      forcePathStyle: true,
      requestTimeoutMs: 30_000,
    });
    expect(config.kind === "s3" && config.secretAccessKey).toBe(SECRET);
    const aws = loadConfig(blobStoreConfigSchema, {
      ...s3Env,
      PETRI_S3_ENDPOINT: "",
      PETRI_S3_REQUEST_TIMEOUT_MS: "5000",
    });
    expect(aws).toMatchObject({ forcePathStyle: false, requestTimeoutMs: 5000 });
    expect(aws).not.toHaveProperty("endpoint");
    expect(loadConfig(blobStoreConfigSchema, { ...s3Env, PETRI_S3_FORCE_PATH_STYLE: "false" })).toMatchObject(
      {
        forcePathStyle: false,
      },
    );
  });

  it("never shows the secret when the configuration is logged or serialised", () => {
    const config = loadConfig(blobStoreConfigSchema, s3Env);
    expect(JSON.stringify(config)).not.toContain(SECRET);
    expect(inspect(config, { depth: 5 })).not.toContain(SECRET);
    const described = JSON.stringify(describeBlobStoreConfig(config));
    expect(described).not.toContain(SECRET);
    expect(described).not.toContain("AKIAIOSFODNN7EXAMPLE");
    expect(described).toContain("petri-results");
  });

  it("names every missing S3 variable at once", () => {
    const error = configError({ PETRI_BLOB_STORE: "s3" });
    expect(error.problems.map((p) => p.variable).sort()).toEqual([
      "PETRI_S3_ACCESS_KEY_ID",
      "PETRI_S3_BUCKET",
      "PETRI_S3_REGION",
      "PETRI_S3_SECRET_ACCESS_KEY",
    ]);
  });

  it("reports bad values readably without echoing secrets", () => {
    const error = configError({
      ...s3Env,
      PETRI_BLOB_STORE: "gcs",
      PETRI_S3_ENDPOINT: "ftp://example.org",
      PETRI_S3_BUCKET: "Petri_Results",
      PETRI_S3_FORCE_PATH_STYLE: "maybe",
      PETRI_S3_REQUEST_TIMEOUT_MS: "soon",
    });
    expect(Object.fromEntries(error.problems.map((p) => [p.variable, p.problem]))).toEqual({
      PETRI_BLOB_STORE: expect.stringMatching(/must be fs or s3/),
      PETRI_S3_ENDPOINT: expect.stringMatching(/http:\/\/ or https:\/\//),
      PETRI_S3_BUCKET: expect.stringMatching(/S3 bucket name/),
      PETRI_S3_FORCE_PATH_STYLE: expect.stringMatching(/true or false/),
      PETRI_S3_REQUEST_TIMEOUT_MS: expect.stringMatching(/milliseconds/),
    });
    expect(error.message).not.toContain(SECRET);
  });

  it("creates the configured store", () => {
    const fs = createBlobStore({ kind: "fs", dir: "/tmp/petri-blobs-unused" });
    expect(fs).toBeInstanceOf(FsBlobStore);
    expect(fs.kind).toBe("fs");
    const s3 = createBlobStore(loadConfig(blobStoreConfigSchema, s3Env));
    expect(s3).toBeInstanceOf(S3BlobStore);
    expect(s3.kind).toBe("s3");
    expect(JSON.stringify(s3)).not.toContain(SECRET);
    expect(inspect(s3, { depth: 10, showHidden: true })).not.toContain(SECRET);
    (s3 as S3BlobStore).destroy();
  });
});
