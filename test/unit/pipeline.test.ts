import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, resolveConfig, toBuildConfig } from "../../src/config.js";
import { serializeNavMesh } from "../../src/format/navmesh-file.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { BuildContext } from "../../src/generate/context.js";
import {
  BuildScratch,
  MAX_RETAINED_SCRATCH_BYTES,
  sharedBuildScratch,
} from "../../src/generate/scratch.js";

/** A 10 × 10 floor of two triangles at y = 0. */
function floor() {
  return {
    positions: new Float32Array([0, 0, 0, 10, 0, 0, 10, 0, 10, 0, 0, 10]),
    indices: new Uint32Array([0, 2, 1, 0, 3, 2]),
  };
}

describe("BuildScratch", () => {
  it("keeps a slot's buffer between requests and lets go of everything on release()", () => {
    const s = new BuildScratch();
    const a = s.bytes("neighbours", 100);
    expect(a.byteLength).toBe(104);
    expect(s.bytes("neighbours", 50)).toBe(a);
    expect(s.int32("spanColumn", 3).length).toBe(3);
    expect(s.retainedBytes).toBe(104 + 16);
    s.release();
    expect(s.retainedBytes).toBe(0);
    expect(s.bytes("neighbours", 50)).not.toBe(a);
  });

  it("never retains more than MAX_RETAINED_SCRATCH_BYTES per slot", () => {
    const s = new BuildScratch();
    const big = s.bytes("distance", MAX_RETAINED_SCRATCH_BYTES + 8);
    expect(big.byteLength).toBe(MAX_RETAINED_SCRATCH_BYTES + 8);
    expect(s.retainedBytes).toBe(0);
    s.adopt("distance", big);
    expect(s.retainedBytes).toBe(0);
  });

  it("a build with its own scratch fills that scratch, not the shared one, with the same bytes", () => {
    const own = new BuildScratch();
    const shared = serializeNavMesh(buildNavMesh(floor()).navMesh, null);
    const before = sharedBuildScratch.retainedBytes;
    const mine = serializeNavMesh(buildNavMesh(floor(), {}, { scratch: own }).navMesh, null);
    expect(mine).toEqual(shared);
    expect(own.retainedBytes).toBeGreaterThan(0);
    expect(sharedBuildScratch.retainedBytes).toBe(before);
    own.release();
    expect(own.retainedBytes).toBe(0);
  });

  it("a BuildContext uses the shared scratch unless given one", () => {
    expect(new BuildContext().scratch).toBe(sharedBuildScratch);
    const s = new BuildScratch();
    expect(new BuildContext(s).scratch).toBe(s);
  });
});

describe("toBuildConfig", () => {
  it("completes a partial config with the defaults, in DEFAULT_CONFIG's order", () => {
    const c = toBuildConfig({ agentRadius: 0.4 });
    expect(Object.keys(c)).toEqual(Object.keys(DEFAULT_CONFIG));
    expect(c).toEqual({ ...DEFAULT_CONFIG, agentRadius: 0.4 });
  });

  it("drops a resolved config's derived values", () => {
    const resolved = resolveConfig({ tileSize: 32, cellSize: 0.25 });
    expect(toBuildConfig(resolved)).toEqual({ ...DEFAULT_CONFIG, tileSize: 32, cellSize: 0.25 });
  });

  it("checks values as resolveConfig does", () => {
    expect(() => toBuildConfig({ cellSize: -1 })).toThrow(/cellSize/);
  });
});

describe("build stats", () => {
  it("report what the stages counted (a degenerate triangle skipped, the detail mesh)", () => {
    const mesh = floor();
    const r = buildNavMesh({ ...mesh, indices: new Uint32Array([...mesh.indices, 0, 0, 1]) });
    expect(r.stats.counts).toEqual({
      "rasterize.skippedTriangles": 1,
      "detail.tris": 2,
      "detail.verts": 4,
    });
  });
});
