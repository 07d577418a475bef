/**
 * Tile seams, where a one-agent walk on a tiled navmesh parts from DetourCrowd's (issue 13):
 * moveAlongSurface across tile borders — what PathCorridor.movePosition walks every update —
 * against Detour's on the SAME tiled polygons (Detour builds, importDetourNavMesh loads).
 * Seeded moves of 5 cm – 1.5 m from random points, kept only when start and end lie in
 * different tiles; coordinates rounded to float32 for both sides.
 *
 * Finding (the 3.6 m drift of the tiled crowd walk): the surface moves agree at seams (this
 * test) and so do full paths and their string pulls; the walks part at the corridor the
 * crowd's 20-iteration quick search hands over. Reproduction: agent at (3.7848, 10.1973,
 * -22.8413), target (2.5, 10.1973, -9), flags anticipateTurns only. DetourCrowd's corridor,
 * read from its WASM memory after one update, is the first route its search found
 * (23:4 23:1 27:0 26:0 26:1 in meshway's slot:poly names); Detour's own findPath between the
 * same refs and points and meshway's quick search both return 23:4 23:1 22:2 22:1 26:0 26:1
 * (meshway improves the end node at its 10th expansion, through the second node state of
 * 26:0). Why Detour's sliced search keeps the first route is not settled yet.
 */
import type * as NavMeshQueryApi from "@recast-navigation/core/dist/nav-mesh-query.js";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { importDetourNavMesh } from "../../src/format/detour-import.js";
import { MoveAlongSurfaceResult } from "../../src/query/move-along-surface.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { mulberry32 } from "../../src/query/random-point.js";
import { buildDetourNavMesh } from "../helpers/detour.js";
import { detourBuildsForSuite } from "../helpers/detour-suite.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { recast } from "../helpers/recast.js";

const core = recast as unknown as typeof recast & typeof NavMeshQueryApi;
const CFG = resolveConfig();
const f32 = Math.fround;

describe("moveAlongSurface across tile seams vs Detour (tiled dungeon, 32-cell tiles)", () => {
  const builds = detourBuildsForSuite();

  it("ends where Detour's ends (XZ within 2e-3) for moves that cross a tile border", () => {
    const build = buildDetourNavMesh(loadSharedMesh("dungeon"), CFG, { tileSize: 32 });
    builds.push(build);
    const nm = importDetourNavMesh(build.bytes, "dungeon");
    const q = new NavMeshQuery(nm);
    const dq = new core.NavMeshQuery(build.navMesh);
    const rng = mulberry32(7);
    const out = new MoveAlongSurfaceResult();
    let crossing = 0;
    let agree = 0;
    let worst = 0;
    for (let k = 0; k < 4000 && crossing < 300; k++) {
      const r = q.findRandomPoint(q.defaultFilter, rng);
      const a = [f32(r.point[0]!), f32(r.point[1]!), f32(r.point[2]!)];
      const angle = rng() * Math.PI * 2;
      const len = 0.05 + rng() * 1.45;
      const b = [f32(a[0]! + Math.cos(angle) * len), a[1]!, f32(a[2]! + Math.sin(angle) * len)];
      if (nm.tileXAt(a[0]!) === nm.tileXAt(b[0]!) && nm.tileZAt(a[2]!) === nm.tileZAt(b[2]!)) {
        continue;
      }
      const ds = dq.findNearestPoly(
        { x: a[0]!, y: a[1]!, z: a[2]! },
        { halfExtents: { x: 0.01, y: 0.5, z: 0.01 } },
      );
      if (!ds.success || ds.nearestRef === 0) continue;
      crossing++;
      q.moveAlongSurface(r.ref, a, b, q.defaultFilter, out);
      const d = dq.moveAlongSurface(ds.nearestRef, ds.nearestPoint, {
        x: b[0]!,
        y: b[1]!,
        z: b[2]!,
      });
      const gap = Math.max(
        Math.abs(out.resultPos[0]! - d.resultPosition.x),
        Math.abs(out.resultPos[2]! - d.resultPosition.z),
      );
      worst = Math.max(worst, gap);
      if (gap <= 2e-3) agree++;
    }
    console.log(
      `moveAlongSurface across seams: ${agree} / ${crossing} within 2e-3 of Detour, worst ${worst.toExponential(2)}`,
    );
    expect(crossing).toBeGreaterThanOrEqual(200);
    expect(agree).toBeGreaterThanOrEqual(Math.ceil(crossing * 0.99));
  });
});
