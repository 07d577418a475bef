import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, resolveConfig } from "../../src/config.js";
import { MeshwayError } from "../../src/errors.js";

describe("resolveConfig", () => {
  it("derives RecastDemo's voxel values from the default world-unit config", () => {
    const c = resolveConfig();
    expect(c.walkableHeightVoxels).toBe(10); // ceil(2.0 / 0.2)
    expect(c.walkableClimbVoxels).toBe(4); // floor(0.9 / 0.2)
    expect(c.walkableRadiusVoxels).toBe(2); // ceil(0.6 / 0.3)
    expect(c.minRegionAreaCells).toBe(64);
    expect(c.mergeRegionAreaCells).toBe(400);
    expect(c.edgeMaxLenVoxels).toBe(40); // 12 / 0.3
    expect(c.edgeMaxErrorVoxels).toBe(1.3);
    expect(c.detailSampleDistWorld).toBeCloseTo(1.8, 12); // 6 cells × 0.3
    expect(c.detailSampleMaxErrorWorld).toBeCloseTo(0.2, 12); // 1 cell height × 0.2
    expect(c.partition).toBe("watershed");
  });

  it("rounds clearance and radius up and climb down", () => {
    const c = resolveConfig({ agentHeight: 2.05, agentRadius: 0.61, agentMaxClimb: 0.95 });
    expect(c.walkableHeightVoxels).toBe(11);
    expect(c.walkableRadiusVoxels).toBe(3);
    expect(c.walkableClimbVoxels).toBe(4);
  });

  it("turns detail sampling off below 0.9 cells", () => {
    expect(resolveConfig({ detailSampleDist: 0.5 }).detailSampleDistWorld).toBe(0);
  });

  it("names the option, its value and the allowed range for out-of-range values", () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ cellSize: 0 }, /"cellSize" = 0 .*> 0/],
      [{ cellSize: -1 }, /"cellSize" = -1/],
      [{ agentMaxSlope: 91 }, /"agentMaxSlope" = 91 .*<= 90/],
      [{ vertsPerPoly: 2 }, /"vertsPerPoly" = 2 .*integer >= 3/],
      [{ vertsPerPoly: 6.5 }, /"vertsPerPoly" = 6.5/],
      [{ agentRadius: Number.NaN }, /"agentRadius" = NaN/],
      [{ agentHeight: "2" }, /"agentHeight" = "2"/],
      [
        { partition: "voronoi" },
        /"partition" = "voronoi" is not one of watershed, monotone, layers/,
      ],
      [{ cellsize: 0.3 }, /unknown config option "cellsize"/],
    ];
    for (const [cfg, message] of cases) {
      let thrown: unknown;
      try {
        resolveConfig(cfg as never);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(MeshwayError);
      expect((thrown as MeshwayError).code).toBe("INVALID_CONFIG");
      expect((thrown as MeshwayError).message).toMatch(message);
    }
  });

  it("leaves the defaults untouched", () => {
    resolveConfig({ cellSize: 0.5 });
    expect(DEFAULT_CONFIG.cellSize).toBe(0.3);
    expect(Object.isFrozen(DEFAULT_CONFIG)).toBe(true);
  });

  it("has a whole-number maxVoxels default (meshway info printed 178956970.666…)", () => {
    expect(DEFAULT_CONFIG.maxVoxels).toBe(178956970);
    expect(Number.isInteger(resolveConfig({}).maxVoxels)).toBe(true);
  });
});

describe("resolveConfig on hostile config objects (a --config file is untrusted)", () => {
  it("refuses inherited names such as toString, constructor and __proto__ as unknown options", () => {
    for (const text of [
      '{"toString": 1}',
      '{"constructor": {}}',
      '{"__proto__": {"cellSize": -1}}',
    ]) {
      const config = JSON.parse(text);
      let err: unknown;
      try {
        resolveConfig(config);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(MeshwayError);
      expect((err as MeshwayError).message).toMatch(
        /^unknown config option "(toString|constructor|__proto__)"/,
      );
    }
  });
});
