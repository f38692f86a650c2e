/**
 * Golden files: the JSON body (`<type>.sll-json`: not `.json`, so that
 * `prettier --write .` leaves the generator's exact output alone) and the rendered SLL text
 * (`<type>.sll`) of every sample plan, under __golden__/.
 * A difference fails the test. After an intended change, regenerate and review the diff:
 *
 *   cd services/cloud-labs && npx vitest run src/domain/sll/golden.test.ts -u
 *
 * (With CI=true a missing golden file fails instead of being written.)
 */
import { describe, expect, it } from "vitest";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { SAMPLE_PLANS } from "../../../test/support/sample-plans.js";
import { toSll } from "./to-sll.js";

const fileName = (type: string) => type.toLowerCase().replaceAll("_", "-");

describe("golden SLL per experiment type", () => {
  for (const type of EXPERIMENT_TYPES) {
    it(type, async () => {
      const { text, ...body } = toSll(SAMPLE_PLANS[type]);
      await expect(`${JSON.stringify(body, null, 2)}\n`).toMatchFileSnapshot(
        `./__golden__/${fileName(type)}.sll-json`,
      );
      await expect(text).toMatchFileSnapshot(`./__golden__/${fileName(type)}.sll`);
    });
  }
});
