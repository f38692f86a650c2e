import type { DescEnum, DescFile } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { file_petri_experiments_v1_experiment } from "./gen/petri/experiments/v1/experiment_pb.js";
import { file_petri_experiments_v1_vocabulary } from "./gen/petri/experiments/v1/vocabulary_pb.js";
import { file_petri_identity_v1_account } from "./gen/petri/identity/v1/account_pb.js";
import { file_petri_marketplace_v1_vocabulary } from "./gen/petri/marketplace/v1/vocabulary_pb.js";
import { file_petri_notifications_v1_vocabulary } from "./gen/petri/notifications/v1/vocabulary_pb.js";
import * as vocabulary from "./vocabulary.js";

const upperSnake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();

const files: DescFile[] = [
  file_petri_experiments_v1_experiment,
  file_petri_experiments_v1_vocabulary,
  file_petri_identity_v1_account,
  file_petri_marketplace_v1_vocabulary,
  file_petri_notifications_v1_vocabulary,
];
const enums: DescEnum[] = files.flatMap((file) => file.enums);

describe("the vocabulary generated from the proto enums", () => {
  it.each(enums.map((e) => [e.typeName, e] as const))("%s: one REST spelling per value, in order", (_, e) => {
    const byName = (vocabulary as Record<string, unknown>)[`${upperSnake(e.name)}_BY_NAME`] as
      Record<string, number> | undefined;
    expect(byName, `no ${upperSnake(e.name)}_BY_NAME: run npm run generate`).toBeDefined();
    const specified = e.values.filter((v) => v.number !== 0);
    expect(Object.values(byName!)).toEqual(specified.map((v) => v.number));
    expect(new Set(Object.keys(byName!)).size).toBe(specified.length);
    const nameByValue = (vocabulary as Record<string, unknown>)[`${upperSnake(e.name)}_NAME_BY_VALUE`] as
      ReadonlyMap<number, string> | undefined;
    expect(nameByValue, `no ${upperSnake(e.name)}_NAME_BY_VALUE: run npm run generate`).toBeDefined();
    expect([...nameByValue!]).toEqual(Object.entries(byName!).map(([name, value]) => [value, name]));
  });

  it("spells a value as its name without the enum prefix, unless the proto says otherwise", () => {
    expect(vocabulary.EXPERIMENT_STATUSES).toContain("pending_approval");
    expect(vocabulary.PRIVACY_LEVELS).toEqual(["open", "delayed_6mo", "delayed_12mo", "private"]);
    expect(vocabulary.BSL_LEVELS).toEqual(["BSL-1", "BSL-2", "BSL-3", "BSL-4"]);
    expect(vocabulary.EXPERIMENT_TYPES).toContain("MIC_MBC_ASSAY");
  });
});
