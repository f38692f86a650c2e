import { describe, expect, it } from "vitest";
import { SllNotExpressibleError } from "./errors.js";
import { GEOMETRY, outerWells, packBlocks, usableWells, wellName, wellSpan } from "./layout.js";

describe("layout", () => {
  it("names wells row-major and leaves the outer ring out for a moat", () => {
    expect(wellName(0, 0)).toBe("A1");
    expect(wellName(15, 23)).toBe("P24");
    expect(usableWells(GEOMETRY["96-well"], false)).toHaveLength(96);
    expect(usableWells(GEOMETRY["96-well"], true)).toHaveLength(60);
    expect(usableWells(GEOMETRY["384-well"], true)).toHaveLength(308);
    expect(usableWells(GEOMETRY["96-well"], true)[0]).toBe("B2");
    expect(outerWells(GEOMETRY["96-well"])).toHaveLength(36);
  });

  it("packs blocks in order, never splitting one across plates", () => {
    const wells = usableWells(GEOMETRY["96-well"], false);
    const placed = packBlocks([40, 40, 40], wells, "f");
    expect(placed.map((b) => b.plate)).toEqual([1, 1, 2]);
    expect(placed[1]!.wells[0]).toBe("D5");
    expect(placed[2]!.wells[0]).toBe("A1");
    expect(wellSpan(placed[0]!.wells)).toBe("A1 to D4");
  });

  it("refuses a block larger than a plate", () => {
    expect(() => packBlocks([97], usableWells(GEOMETRY["96-well"], false), "compounds")).toThrow(
      SllNotExpressibleError,
    );
  });
});
