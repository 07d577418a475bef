import {
  BufferGeometry,
  DoubleSide,
  Group,
  LineBasicMaterial,
  LineSegments,
  Mesh,
  MeshBasicMaterial,
  Points,
  PointsMaterial,
} from "three";
import type { DebugPrimitive } from "../debug/primitive.js";
import { fillGeometry } from "./buffers.js";

type Drawn = Mesh<BufferGeometry, MeshBasicMaterial> | LineSegments | Points;

/**
 * Draws meshway/debug primitive sets (drawNavMesh, drawContours, drawNodePool, …) in a
 * three.js scene: triangles as a Mesh, lines as LineSegments, points as Points, all with
 * per-vertex RGBA colours. Add it to the scene once and call `set(...)` whenever the drawing
 * changes; its objects and their geometries are reused (grown only when a drawing outgrows
 * them). Line widths other than 1 are a WebGL limitation (three draws 1-pixel lines).
 */
export class DebugDrawer extends Group {
  readonly triangleMaterial = new MeshBasicMaterial({
    vertexColors: true,
    transparent: true,
    depthWrite: false,
    side: DoubleSide,
    polygonOffset: true,
    polygonOffsetFactor: -1,
    polygonOffsetUnits: -1,
  });
  readonly lineMaterial = new LineBasicMaterial({ vertexColors: true, transparent: true });
  readonly pointMaterials = new Map<number, PointsMaterial>();
  private readonly pool: Drawn[] = [];
  private used = 0;

  constructor(primitives: readonly DebugPrimitive[] = []) {
    super();
    this.name = "meshway DebugDrawer";
    if (primitives.length > 0) this.set(primitives);
  }

  /** Replaces what is drawn with `primitives` (several drawings may be concatenated). */
  set(...drawings: (readonly DebugPrimitive[])[]): this {
    this.used = 0;
    for (const prims of drawings) for (const p of prims) this.add1(p);
    for (let i = this.used; i < this.pool.length; i++) this.pool[i]!.visible = false;
    return this;
  }

  /** Draws nothing (objects are kept for reuse). */
  clear(): this {
    return this.set();
  }

  /** Number of primitive sets currently drawn. */
  get drawnCount(): number {
    return this.used;
  }

  private add1(p: DebugPrimitive): void {
    if (p.positions.length === 0) return;
    let obj = this.pool[this.used];
    if (obj === undefined || kindOf(obj) !== p.kind) {
      const fresh = this.create(p);
      if (obj !== undefined) {
        this.remove(obj);
        obj.geometry.dispose();
      }
      obj = fresh;
      this.pool[this.used] = obj;
      this.add(obj);
    }
    if (p.kind === "points") (obj as Points).material = this.pointMaterial(p.size);
    fillGeometry(obj.geometry, p.positions, p.colours);
    obj.visible = true;
    this.used++;
  }

  private create(p: DebugPrimitive): Drawn {
    const g = new BufferGeometry();
    if (p.kind === "triangles") return new Mesh(g, this.triangleMaterial);
    if (p.kind === "lines") return new LineSegments(g, this.lineMaterial);
    return new Points(g, this.pointMaterial(p.size));
  }

  private pointMaterial(size: number): PointsMaterial {
    let m = this.pointMaterials.get(size);
    if (m === undefined) {
      m = new PointsMaterial({
        vertexColors: true,
        transparent: true,
        size,
        sizeAttenuation: false,
      });
      this.pointMaterials.set(size, m);
    }
    return m;
  }

  /** Frees the geometries and materials (the drawer can still be reused afterwards). */
  dispose(): void {
    for (const o of this.pool) {
      this.remove(o);
      o.geometry.dispose();
    }
    this.pool.length = 0;
    this.used = 0;
    this.triangleMaterial.dispose();
    this.lineMaterial.dispose();
    for (const m of this.pointMaterials.values()) m.dispose();
    this.pointMaterials.clear();
  }
}

function kindOf(o: Drawn): DebugPrimitive["kind"] {
  if ((o as Points).isPoints === true) return "points";
  if ((o as LineSegments).isLineSegments === true) return "lines";
  return "triangles";
}
