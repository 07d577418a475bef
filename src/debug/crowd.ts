// A crowd's state for debugging: agents, their velocities, desired velocities, next corners and
// corridors — what RecastDemo's CrowdTool draws (duDebugDrawCircle / Cylinder, arrows, corner
// lines, the corridor polygons).
import type { Crowd } from "../crowd/crowd.js";
import {
  AGENT_COLOUR,
  CORNER_COLOUR,
  CORRIDOR_COLOUR,
  type Colour,
  DESIRED_VELOCITY_COLOUR,
  VELOCITY_COLOUR,
} from "../navmesh/palette.js";
import { polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import { type DebugPrimitive, finishAll, PrimitiveBuilder, shade, withAlpha } from "./primitive.js";
import { fillPoly } from "./query.js";

export interface DrawCrowdOptions {
  /** Agents as circles at their feet (lines, default), solid cylinders (triangles), or none. */
  agents?: "circles" | "cylinders" | false;
  /** Each agent's velocity, a segment from half its height (default true). */
  velocities?: boolean;
  /** Each agent's desired velocity, the same way (default true). */
  desiredVelocities?: boolean;
  /** A polyline from the agent through its next corners, the corners as points (default true). */
  corners?: boolean;
  /** Each agent's corridor polygons filled (default false: it covers the navmesh). */
  corridors?: boolean;
  /** Segments per circle (default 16). [Limit: 3..256] */
  segments?: number;
}

/** Lift off the floor so circles and corner lines are not hidden in the navmesh fill. */
const LIFT = 0.05;

/**
 * The agents of `crowd` (every active slot, in slot order) as primitive sets, in this order
 * when drawn: corridors (triangles), agent cylinders (triangles) or circles (lines),
 * velocities (lines), desired velocities (lines), corner lines (lines), corners (points).
 * Empty sets are left out. Reads the crowd as of its last update; changes nothing.
 */
export function drawCrowd(crowd: Crowd, options: DrawCrowdOptions = {}): DebugPrimitive[] {
  const agents = options.agents ?? "circles";
  const segments = Math.max(3, Math.min(256, Math.floor(options.segments ?? 16)));
  const corridor = new PrimitiveBuilder("triangles");
  const solid = new PrimitiveBuilder("triangles");
  const rings = new PrimitiveBuilder("lines", 2);
  const vel = new PrimitiveBuilder("lines", 2);
  const dvel = new PrimitiveBuilder("lines", 2);
  const cornerLines = new PrimitiveBuilder("lines", 2);
  const cornerPoints = new PrimitiveBuilder("points", 6);
  const p = crowd.positions;
  const v = crowd.velocities;
  const dv = [0, 0, 0];
  const n = crowd.agentCount;
  for (let id = 0; id < n; id++) {
    if (crowd.active[id] !== 1) continue;
    const x = p[id * 3]!;
    const y = p[id * 3 + 1]!;
    const z = p[id * 3 + 2]!;
    const r = crowd.agentRadius(id);
    const h = crowd.agentHeight(id);
    if (options.corridors === true) {
      const c = crowd.corridor(id);
      for (let i = 0; i < c.count; i++) {
        const ref = c.path[i]!;
        if (!crowd.navMesh.isValidPolyRef(ref)) continue;
        const tile = crowd.navMesh.tileInSlot(tileOfRef(ref));
        if (tile !== null)
          fillPoly(corridor, tile, polyOfRef(ref), withAlpha(CORRIDOR_COLOUR, 90), LIFT);
      }
    }
    if (agents === "circles") appendCircle(rings, x, y + LIFT, z, r, segments, AGENT_COLOUR);
    else if (agents === "cylinders") appendCylinder(solid, x, y, z, r, h, segments, AGENT_COLOUR);
    const mid = y + h * 0.5;
    if (options.velocities !== false) {
      vel.segment(
        x,
        mid,
        z,
        x + v[id * 3]!,
        mid + v[id * 3 + 1]!,
        z + v[id * 3 + 2]!,
        VELOCITY_COLOUR,
      );
    }
    if (options.desiredVelocities !== false) {
      crowd.desiredVelocity(id, dv);
      dvel.segment(x, mid, z, x + dv[0]!, mid + dv[1]!, z + dv[2]!, DESIRED_VELOCITY_COLOUR);
    }
    if (options.corners !== false) {
      let px = x;
      let py = y + LIFT;
      let pz = z;
      for (const c of crowd.corners(id)) {
        const cy = c[1] + LIFT;
        cornerLines.segment(px, py, pz, c[0], cy, c[2], CORNER_COLOUR);
        cornerPoints.vertex(c[0], cy, c[2], CORNER_COLOUR);
        px = c[0];
        py = cy;
        pz = c[2];
      }
    }
  }
  return finishAll(corridor, solid, rings, vel, dvel, cornerLines, cornerPoints);
}

/** A horizontal circle of `segments` segments (duDebugDrawCircle). */
function appendCircle(
  b: PrimitiveBuilder,
  x: number,
  y: number,
  z: number,
  r: number,
  segments: number,
  c: Colour,
): void {
  for (let i = 0; i < segments; i++) {
    const a0 = (i / segments) * 2 * Math.PI;
    const a1 = ((i + 1) / segments) * 2 * Math.PI;
    b.segment(
      x + Math.cos(a0) * r,
      y,
      z + Math.sin(a0) * r,
      x + Math.cos(a1) * r,
      y,
      z + Math.sin(a1) * r,
      c,
    );
  }
}

/**
 * A solid upright cylinder standing at (x, y, z): side quads and a top cap, wound
 * counter-clockwise seen from outside, the side shaded darker than the top (duAppendCylinder).
 */
function appendCylinder(
  b: PrimitiveBuilder,
  x: number,
  y: number,
  z: number,
  r: number,
  h: number,
  segments: number,
  c: Colour,
): void {
  const side = shade(c, 0.75);
  const top = y + h;
  for (let i = 0; i < segments; i++) {
    const a0 = (i / segments) * 2 * Math.PI;
    const a1 = ((i + 1) / segments) * 2 * Math.PI;
    const x0 = x + Math.cos(a0) * r;
    const z0 = z + Math.sin(a0) * r;
    const x1 = x + Math.cos(a1) * r;
    const z1 = z + Math.sin(a1) * r;
    // Angles grow from +x towards +z, clockwise seen from above (+y): (centre, p1, p0) is
    // counter-clockwise from above.
    b.vertex(x, top, z, c);
    b.vertex(x1, top, z1, c);
    b.vertex(x0, top, z0, c);
    b.vertex(x0, y, z0, side);
    b.vertex(x0, top, z0, side);
    b.vertex(x1, top, z1, side);
    b.vertex(x0, y, z0, side);
    b.vertex(x1, top, z1, side);
    b.vertex(x1, y, z1, side);
  }
}
