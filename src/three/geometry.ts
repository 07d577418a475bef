import type { BufferGeometry, InstancedMesh, Material, Mesh, Object3D } from "three";
import { Matrix4 } from "three";
import { MeshwayError } from "../errors.js";

/** World-space triangles of a three.js scene, ready for buildNavMesh. */
export interface ScenePositionsAndIndices {
  /** 3 floats per vertex, world units. */
  positions: Float32Array;
  /** 3 vertex indices per triangle, wound as the scene shows them. */
  indices: Uint32Array;
}

export interface GetPositionsAndIndicesOptions {
  /** Include objects (or an ancestor) with `visible === false`. Default false. */
  includeInvisible?: boolean;
  /** Keep only meshes this returns true for (e.g. a `userData.walkable` tag). Default: all. */
  filter?: (mesh: Mesh) => boolean;
}

function isMesh(o: Object3D): o is Mesh {
  return (o as Mesh).isMesh === true;
}

function isInstanced(o: Object3D): o is InstancedMesh {
  return (o as InstancedMesh).isInstancedMesh === true;
}

function shownAncestors(o: Object3D): boolean {
  for (let p: Object3D | null = o.parent; p !== null; p = p.parent) if (!p.visible) return false;
  return true;
}

function materialShown(material: Material | undefined): boolean {
  return material !== undefined && material.visible !== false;
}

/**
 * Triangle ranges of a mesh as index (or vertex, when non-indexed) ranges [start, end): its
 * groups whose material is present and visible, clipped to the draw range — what three.js
 * renders — or the whole draw range when it has no groups.
 */
function drawnRanges(mesh: Mesh, geometry: BufferGeometry, total: number): number[] {
  const start = Math.max(0, geometry.drawRange.start);
  const end = Math.min(total, start + geometry.drawRange.count);
  const out: number[] = [];
  const materials = mesh.material;
  if (geometry.groups.length > 0 && Array.isArray(materials)) {
    for (const g of geometry.groups) {
      if (!materialShown(materials[g.materialIndex ?? 0])) continue;
      const s = Math.max(start, g.start);
      const e = Math.min(end, g.start + g.count);
      if (e > s) out.push(s, e);
    }
  } else if (Array.isArray(materials) ? materials.some(materialShown) : materialShown(materials)) {
    if (end > start) out.push(start, end);
  }
  return out;
}

/**
 * The world-space triangles of `objects` and their descendants, as buildNavMesh takes them:
 * every Mesh's geometry through its world matrix (each instance of an InstancedMesh through
 * matrixWorld × its instance matrix), indexed or not, only the groups and draw range three.js
 * renders. Objects that are invisible (or under an invisible parent), have no visible
 * material, or are not meshes (lines, points, sprites, lights) are skipped; an object reached
 * twice counts once. Under a mirroring transform (negative determinant) each triangle's
 * winding is reversed so faces keep pointing the way they are seen. Skinning and morph
 * targets are not applied (the bind pose is used).
 */
export function getPositionsAndIndices(
  objects: Object3D | readonly Object3D[],
  options: GetPositionsAndIndicesOptions = {},
): ScenePositionsAndIndices {
  const roots = Array.isArray(objects) ? objects : [objects as Object3D];
  const includeInvisible = options.includeInvisible === true;
  const meshes: Mesh[] = [];
  const seen = new Set<Object3D>();
  for (let r = 0; r < roots.length; r++) {
    const root = roots[r];
    if (root === null || typeof root !== "object" || typeof root.traverse !== "function") {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `getPositionsAndIndices: objects[${r}] is not a three.js Object3D`,
      );
    }
    if (!includeInvisible && !shownAncestors(root)) continue;
    root.updateWorldMatrix(true, true);
    const visit = (o: Object3D) => {
      if (seen.has(o)) return;
      seen.add(o);
      if (isMesh(o) && (options.filter === undefined || options.filter(o))) meshes.push(o);
    };
    if (includeInvisible) root.traverse(visit);
    else root.traverseVisible(visit);
  }

  // Sizes first, so the output is allocated once.
  let vertexTotal = 0;
  let indexTotal = 0;
  const ranges: number[][] = [];
  for (const mesh of meshes) {
    const g = mesh.geometry;
    const pos = g?.getAttribute("position");
    const copies = isInstanced(mesh) ? mesh.count : 1;
    if (pos === undefined || pos.itemSize < 3 || copies === 0) {
      ranges.push([]);
      continue;
    }
    const total = g.index !== null ? g.index.count : pos.count;
    const rs = drawnRanges(mesh, g, total);
    ranges.push(rs);
    let n = 0;
    for (let i = 0; i < rs.length; i += 2) n += Math.floor((rs[i + 1]! - rs[i]!) / 3) * 3;
    if (n === 0) continue;
    vertexTotal += pos.count * copies;
    indexTotal += n * copies;
  }

  const positions = new Float32Array(vertexTotal * 3);
  const indices = new Uint32Array(indexTotal);
  const world = new Matrix4();
  const instance = new Matrix4();
  let vo = 0;
  let io = 0;
  for (let m = 0; m < meshes.length; m++) {
    const mesh = meshes[m]!;
    const rs = ranges[m]!;
    if (rs.length === 0) continue;
    const g = mesh.geometry;
    const pos = g.getAttribute("position");
    const index = g.index;
    let any = false;
    for (let i = 0; i < rs.length; i += 2) if (rs[i + 1]! - rs[i]! >= 3) any = true;
    if (!any) continue;
    const copies = isInstanced(mesh) ? mesh.count : 1;
    for (let c = 0; c < copies; c++) {
      world.copy(mesh.matrixWorld);
      if (isInstanced(mesh)) world.multiply(mesh.getMatrixAt(c, instance));
      const e = world.elements;
      const base = vo;
      for (let v = 0; v < pos.count; v++) {
        const x = pos.getX(v);
        const y = pos.getY(v);
        const z = pos.getZ(v);
        const w = e[3]! * x + e[7]! * y + e[11]! * z + e[15]!;
        const k = w !== 0 && w !== 1 ? 1 / w : 1;
        positions[vo * 3] = (e[0]! * x + e[4]! * y + e[8]! * z + e[12]!) * k;
        positions[vo * 3 + 1] = (e[1]! * x + e[5]! * y + e[9]! * z + e[13]!) * k;
        positions[vo * 3 + 2] = (e[2]! * x + e[6]! * y + e[10]! * z + e[14]!) * k;
        vo++;
      }
      const flip = world.determinant() < 0;
      for (let r = 0; r < rs.length; r += 2) {
        const end = rs[r]! + Math.floor((rs[r + 1]! - rs[r]!) / 3) * 3;
        for (let t = rs[r]!; t < end; t += 3) {
          const a = index !== null ? index.getX(t) : t;
          const b = index !== null ? index.getX(t + 1) : t + 1;
          const d = index !== null ? index.getX(t + 2) : t + 2;
          indices[io++] = base + a;
          indices[io++] = base + (flip ? d : b);
          indices[io++] = base + (flip ? b : d);
        }
      }
    }
  }
  return { positions, indices };
}
