import { describe, expect, it } from "vitest";
import { LocalBoundary, MAX_LOCAL_SEGS } from "../../src/crowd/local-boundary.js";
import { distancePtSegSqrXZ } from "../../src/navmesh/geometry.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { boxScene, polyAt } from "../helpers/query-scenes.js";

describe("LocalBoundary", () => {
  it("keeps the nearest walls within range, sorted by distance", () => {
    const nm = boxScene();
    const q = new NavMeshQuery(nm);
    const b = new LocalBoundary();
    const pos = [3, 0.25, 5];
    b.update(polyAt(nm, 3, 5), pos, 2, q, q.defaultFilter);
    expect(b.segmentCount).toBeGreaterThan(0);
    expect(b.segmentCount).toBeLessThanOrEqual(MAX_LOCAL_SEGS);
    for (let i = 0; i < b.segmentCount; i++) {
      const s = b.segments.subarray(i * 6, i * 6 + 6);
      const d = distancePtSegSqrXZ(3, 5, s[0]!, s[2]!, s[3]!, s[5]!);
      expect(d).toBe(b.segmentDistSqr[i]);
      expect(d).toBeLessThanOrEqual(4);
      if (i > 0) expect(d).toBeGreaterThanOrEqual(b.segmentDistSqr[i - 1]!);
    }
    // The box face at x = 3.5 is the nearest wall, 0.5 away.
    expect(Math.sqrt(b.segmentDistSqr[0]!)).toBeCloseTo(0.5, 6);
    expect([...b.center]).toEqual(pos);
    expect(b.isValid(q, q.defaultFilter)).toBe(true);
  });

  it("goes invalid when its tile is removed, and empties on update", () => {
    const nm = boxScene();
    const q = new NavMeshQuery(nm);
    const b = new LocalBoundary();
    const ref = polyAt(nm, 3, 5);
    b.update(ref, [3, 0.25, 5], 2, q, q.defaultFilter);
    nm.removeTile(nm.tileRefAt(0, 0));
    expect(b.isValid(q, q.defaultFilter)).toBe(false);
    b.update(ref, [3, 0.25, 5], 2, q, q.defaultFilter);
    expect(b.segmentCount).toBe(0);
    expect(b.center[0]).toBe(Number.POSITIVE_INFINITY);
  });
});
