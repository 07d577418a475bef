import { MeshwayError } from "../errors.js";
import type { TriangleMesh } from "../input.js";
import { MAX_AREAS, WALKABLE_AREA } from "../navmesh/areas.js";
import { NavMesh } from "../navmesh/nav-mesh.js";
import { POLY_FLAG_WALK } from "../navmesh/tile.js";
import {
  earClipXZ,
  firstReflexCorner,
  isStrictlyConvexXZ,
  mergeConvexXZ,
  selfIntersectsXZ,
  twiceAreaXZ,
} from "./polygon-convex.js";
import { polygonsToTiles } from "./polygon-tiles.js";
import { insertTJunctions, weldVertices } from "./polygon-weld.js";

/** Authored walkable faces: the faces ARE the navmesh (Blender, glTF, OBJ level navmeshes). */
export interface AuthoredPolygons {
  /** 3 numbers per vertex, world units, +Y up. */
  vertices: ArrayLike<number>;
  /** Each face: 3 or more vertex indices, in order around it (either winding). */
  polygons: ArrayLike<ArrayLike<number>>;
  /** Area id per face, 0..63 (default 63, walkable). */
  areas?: ArrayLike<number>;
  /** Query-filter flags per face, 0..65535 (default 1, walk). */
  flags?: ArrayLike<number>;
}

export interface FromPolygonsOptions {
  /** Vertices closer than this (3D), and vertices this close to an edge, are joined. World units, >= 0. */
  weldTolerance: number;
  /** Tile edge on X and Z, world units (> 0); omitted: one tile. */
  tileSize?: number;
  /** Recorded in the navmesh parameters (queries' default extents, validation). Default 0.3. */
  cellSize?: number;
  /** Recorded in the navmesh parameters. Default 0.2. */
  cellHeight?: number;
  /** "flat" (default): each polygon is its own surface; a TriangleMesh: heights sampled from it. */
  detail?: "flat" | TriangleMesh;
  /** Split concave faces into convex polygons (default true); false: throw naming each one. */
  splitConcave?: boolean;
  /**
   * Merge neighbouring faces of the same area and flags into larger convex polygons when they
   * lie in one plane (within weldTolerance): for triangle input such as glTF. Default false.
   */
  mergeFaces?: boolean;
  /** Most corners per polygon, 3..6 (Detour's limit). Default 6. */
  maxVertsPerPoly?: number;
  /** Agent recorded in the navmesh (used by off-mesh linking and climb checks). */
  agentHeight?: number;
  agentRadius?: number;
  agentMaxClimb?: number;
}

/** What the import did, for logs and for the CLI summary. */
export interface FromPolygonsReport {
  inputVertices: number;
  weldedVertices: number;
  /** Vertices inserted into edges they lay on (T-junctions repaired). */
  tJunctions: number;
  /** Faces given clockwise-from-above and reversed. */
  flippedFaces: number;
  /** Faces that were concave or too large and were split (face indices). */
  splitFaces: number[];
  /** Faces left out: degenerate after welding, vertical, or zero area (face index and why). */
  droppedFaces: { face: number; reason: string }[];
  polygons: number;
  tiles: number;
}

function bad(what: string): never {
  throw new MeshwayError("INVALID_INPUT", `navMeshFromPolygons: ${what}`);
}

function badOption(what: string): never {
  throw new MeshwayError("INVALID_CONFIG", `navMeshFromPolygons: ${what}`);
}

function numberOption(
  value: unknown,
  name: string,
  fallback: number,
  ok: (v: number) => boolean,
  limit: string,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || !ok(value)) {
    badOption(`${name} must be ${limit}, got ${String(value)}`);
  }
  return value;
}

/**
 * Builds a runtime navmesh straight from authored polygons: welds vertices within
 * `weldTolerance`, repairs T-junctions, winds every face like meshway's tiles, splits concave
 * (or too large) faces by ear clipping and a Hertel–Mehlhorn merge, optionally merges coplanar
 * neighbouring faces, cuts into tiles (`tileSize`) with linked borders, and builds detail
 * meshes and BV trees. The result passes validateNavMesh; faces overlapping on one level are
 * not detected here (validateNavMesh reports them).
 */
export function navMeshFromPolygons(
  input: AuthoredPolygons,
  options: FromPolygonsOptions,
): { navMesh: NavMesh; report: FromPolygonsReport } {
  if (input === null || typeof input !== "object") bad("expected { vertices, polygons }");
  if (options === null || typeof options !== "object") badOption("expected options");
  const tol = numberOption(
    options.weldTolerance,
    "weldTolerance",
    Number.NaN,
    (v) => v >= 0,
    ">= 0",
  );
  if (Number.isNaN(tol)) badOption("weldTolerance is required (world units, >= 0)");
  const tileSize =
    options.tileSize === undefined
      ? undefined
      : numberOption(options.tileSize, "tileSize", 0, (v) => v > 0, "> 0 (world units)");
  const cellSize = numberOption(options.cellSize, "cellSize", 0.3, (v) => v > 0, "> 0");
  const cellHeight = numberOption(options.cellHeight, "cellHeight", 0.2, (v) => v > 0, "> 0");
  const nvp = numberOption(
    options.maxVertsPerPoly,
    "maxVertsPerPoly",
    6,
    (v) => Number.isInteger(v) && v >= 3 && v <= 6,
    "an integer 3..6",
  );
  const agentHeight = numberOption(options.agentHeight, "agentHeight", 2, (v) => v > 0, "> 0");
  const agentRadius = numberOption(options.agentRadius, "agentRadius", 0.6, (v) => v >= 0, ">= 0");
  const agentMaxClimb = numberOption(
    options.agentMaxClimb,
    "agentMaxClimb",
    0.9,
    (v) => v >= 0,
    ">= 0",
  );
  const detail = options.detail ?? "flat";
  if (
    detail !== "flat" &&
    (typeof detail !== "object" || !(detail.positions instanceof Float32Array))
  ) {
    badOption('detail must be "flat" or a TriangleMesh (validateTriangleMesh output)');
  }

  const { vertices, polygons } = input;
  if (!vertices || typeof vertices.length !== "number") bad("vertices is missing or not an array");
  if (!polygons || typeof polygons.length !== "number") bad("polygons is missing or not an array");
  if (vertices.length % 3 !== 0) bad(`vertices length ${vertices.length} is not a multiple of 3`);
  const vertexCount = vertices.length / 3;
  for (let i = 0; i < vertices.length; i++) {
    if (!Number.isFinite(vertices[i])) {
      bad(
        `vertex ${Math.floor(i / 3)} ${"xyz"[i % 3]} is ${vertices[i]}, expected a finite number`,
      );
    }
  }
  const faceCount = polygons.length;
  const areas = perFace(input.areas, faceCount, "areas", WALKABLE_AREA, MAX_AREAS - 1);
  const flags = perFace(input.flags, faceCount, "flags", POLY_FLAG_WALK, 0xffff);

  const weld = weldVertices(vertices, vertexCount, tol);
  const pos = weld.positions;
  const report: FromPolygonsReport = {
    inputVertices: vertexCount,
    weldedVertices: weld.count,
    tJunctions: 0,
    flippedFaces: 0,
    splitFaces: [],
    droppedFaces: [],
    polygons: 0,
    tiles: 0,
  };
  const faces: number[][] = [];
  const faceOf: number[] = [];
  for (let f = 0; f < faceCount; f++) {
    const face = polygons[f];
    if (!face || typeof face.length !== "number") bad(`polygon ${f} is not an array of indices`);
    if (face.length < 3) bad(`polygon ${f} has ${face.length} vertices, expected at least 3`);
    const out: number[] = [];
    for (let i = 0; i < face.length; i++) {
      const v = face[i]!;
      if (!Number.isInteger(v) || v < 0 || v >= vertexCount) {
        bad(`polygon ${f} vertex ${i} is ${v}, expected an integer index below ${vertexCount}`);
      }
      const w = weld.remap[v]!;
      if (out[out.length - 1] !== w) out.push(w);
    }
    while (out.length > 1 && out[0] === out[out.length - 1]) out.pop();
    if (out.length < 3) {
      report.droppedFaces.push({ face: f, reason: "fewer than 3 distinct vertices after welding" });
      continue;
    }
    faces.push(out);
    faceOf.push(f);
  }
  report.tJunctions = insertTJunctions(faces, pos, tol);

  // Wind like meshway's tiles (negative XZ area); faces without XZ area are not walkable.
  const polys: number[][] = [];
  const polyArea: number[] = [];
  const polyFlag: number[] = [];
  const polyFace: number[] = [];
  const concave: string[] = [];
  faces.forEach((face, k) => {
    const f = faceOf[k]!;
    const area2 = twiceAreaXZ(pos, face);
    if (!(Math.abs(area2) > 1e-9)) {
      report.droppedFaces.push({
        face: f,
        reason: "no area seen from above (vertical or degenerate)",
      });
      return;
    }
    if (selfIntersectsXZ(pos, face)) {
      bad(`polygon ${f} is self-intersecting (two of its edges cross seen from above)`);
    }
    if (area2 > 0) {
      face.reverse();
      report.flippedFaces++;
    }
    let parts: number[][] = [face];
    if (!isStrictlyConvexXZ(pos, face) || face.length > nvp) {
      const reflex = firstReflexCorner(pos, face);
      if (reflex >= 0 && options.splitConcave === false) {
        const v = face[reflex]!;
        concave.push(
          `polygon ${f} is concave at vertex ${v} (${pos[v * 3]}, ${pos[v * 3 + 1]}, ${pos[v * 3 + 2]})`,
        );
        return;
      }
      const tris = earClipXZ(pos, face);
      if (!tris) {
        bad(`polygon ${f} folds over itself (no ear to clip)`);
      }
      parts = mergeConvexXZ(pos, tris, nvp, () => true).polys;
      report.splitFaces.push(f);
    }
    for (const part of parts) {
      polys.push(part);
      polyArea.push(areas[f]!);
      polyFlag.push(flags[f]!);
      polyFace.push(f);
    }
  });
  if (concave.length > 0) {
    bad(
      `${concave.length} concave face(s) and splitConcave is false: ${concave.slice(0, 10).join("; ")}${concave.length > 10 ? "; …" : ""}`,
    );
  }

  let convex = polys;
  let convexArea = polyArea;
  let convexFlag = polyFlag;
  if (options.mergeFaces) {
    const planeTol = Math.max(tol, 1e-4);
    const merged = mergeConvexXZ(pos, polys, nvp, (a, b, union) => {
      if (polyArea[a] !== polyArea[b] || polyFlag[a] !== polyFlag[b]) return false;
      return coplanar(pos, union, planeTol);
    });
    convex = merged.polys;
    convexArea = [];
    convexFlag = [];
    merged.owner.forEach((o, p) => {
      convexArea[o] = polyArea[p]!;
      convexFlag[o] = polyFlag[p]!;
    });
  }

  const heightAt = detail === "flat" ? undefined : surfaceSampler(detail);
  const layout = polygonsToTiles(
    { positions: pos, polys: convex, areas: convexArea, flags: convexFlag },
    { tileSize, maxVertsPerPoly: nvp, detailHeight: heightAt },
  );
  const navMesh = new NavMesh({
    origin: layout.origin,
    tileWidth: layout.tileWidth,
    tileDepth: layout.tileDepth,
    cellSize,
    cellHeight,
    maxVertsPerPoly: nvp,
    agentHeight,
    agentRadius,
    agentMaxClimb,
  });
  for (const tile of layout.tiles) {
    navMesh.addTile(tile);
    report.polygons += tile.polyCount;
  }
  report.tiles = layout.tiles.length;
  return { navMesh, report };
}

function perFace(
  values: ArrayLike<number> | undefined,
  count: number,
  name: string,
  fallback: number,
  max: number,
): number[] {
  const out = new Array<number>(count).fill(fallback);
  if (values === undefined) return out;
  if (typeof values.length !== "number" || values.length !== count) {
    bad(`${name} must have one value per polygon (${count}), got ${String(values.length)}`);
  }
  for (let i = 0; i < count; i++) {
    const v = values[i]!;
    if (!Number.isInteger(v) || v < 0 || v > max) {
      bad(`${name}[${i}] is ${v}, expected an integer 0..${max}`);
    }
    out[i] = v;
  }
  return out;
}

/** All corners within `tol` of the plane through the polygon's first three corners. */
function coplanar(pos: Float32Array, poly: readonly number[], tol: number): boolean {
  const a = poly[0]! * 3;
  const b = poly[1]! * 3;
  const c = poly[2]! * 3;
  const ux = pos[b]! - pos[a]!;
  const uy = pos[b + 1]! - pos[a + 1]!;
  const uz = pos[b + 2]! - pos[a + 2]!;
  const vx = pos[c]! - pos[a]!;
  const vy = pos[c + 1]! - pos[a + 1]!;
  const vz = pos[c + 2]! - pos[a + 2]!;
  const nx = uy * vz - uz * vy;
  const ny = uz * vx - ux * vz;
  const nz = ux * vy - uy * vx;
  const len = Math.hypot(nx, ny, nz);
  if (len === 0) return false;
  for (let i = 3; i < poly.length; i++) {
    const p = poly[i]! * 3;
    const d =
      ((pos[p]! - pos[a]!) * nx +
        (pos[p + 1]! - pos[a + 1]!) * ny +
        (pos[p + 2]! - pos[a + 2]!) * nz) /
      len;
    if (Math.abs(d) > tol) return false;
  }
  return true;
}

/**
 * Height of a triangle surface at (x, z): the triangle containing the point in XZ whose
 * height is nearest `near`; `near` itself when none does. Linear scan: import is offline.
 */
function surfaceSampler(mesh: TriangleMesh): (x: number, z: number, near: number) => number {
  const p = mesh.positions;
  const idx = mesh.indices;
  return (x, z, near) => {
    let best = near;
    let bestD = Infinity;
    for (let t = 0; t < mesh.triangleCount; t++) {
      const a = idx[t * 3]! * 3;
      const b = idx[t * 3 + 1]! * 3;
      const c = idx[t * 3 + 2]! * 3;
      const v0x = p[b]! - p[a]!;
      const v0z = p[b + 2]! - p[a + 2]!;
      const v1x = p[c]! - p[a]!;
      const v1z = p[c + 2]! - p[a + 2]!;
      const den = v0x * v1z - v0z * v1x;
      if (den === 0) continue;
      const px = x - p[a]!;
      const pz = z - p[a + 2]!;
      const u = (px * v1z - pz * v1x) / den;
      const w = (v0x * pz - v0z * px) / den;
      if (u < 0 || w < 0 || u + w > 1) continue;
      const y = p[a + 1]! + u * (p[b + 1]! - p[a + 1]!) + w * (p[c + 1]! - p[a + 1]!);
      if (Math.abs(y - near) < bestD) {
        bestD = Math.abs(y - near);
        best = y;
      }
    }
    return best;
  };
}
