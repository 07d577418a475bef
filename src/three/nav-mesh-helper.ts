import {
  BufferGeometry,
  DoubleSide,
  type Material,
  Mesh,
  MeshBasicMaterial,
  Object3D,
} from "three";
import type { NavMeshColourBy } from "../debug/colour-by.js";
import { drawNavMesh } from "../debug/navmesh.js";
import { navMeshGeometry } from "../debug/navmesh-geometry.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import { fillGeometry } from "./buffers.js";
import { DebugDrawer } from "./debug-drawer.js";

export interface NavMeshHelperOptions {
  /** Polygons follow the detail mesh (true, default) or are flat fans of their vertices. */
  detail?: boolean;
  /** Default "polygon" (neighbours differ, the colours of the PNG renderer). */
  colourBy?: NavMeshColourBy;
  /** Material of the surface; default a translucent vertex-coloured MeshBasicMaterial. */
  material?: Material;
  /** Draw polygon edges, walls and vertices on top (default true). */
  edges?: boolean;
  /** Lift above the level geometry so the surface does not z-fight with it (default 0.02). */
  lift?: number;
  /**
   * Watch the navmesh each frame (from updateMatrixWorld) and rebuild in place when a tile
   * was added, removed or replaced, or an off-mesh connection added or removed. Default true;
   * call `update()` yourself after changing polygon flags or areas.
   */
  autoUpdate?: boolean;
}

/**
 * The navmesh surface in a three.js scene: one Mesh (`mesh`) of every ground polygon, coloured
 * like meshway's PNGs, plus edges and vertices (`edges`, a DebugDrawer). It watches the
 * navmesh's tiles and redraws in place (same objects, geometry grown only when needed) when
 * tiles are replaced — by a tile cache, a streamed tile or replaceTile.
 */
export class NavMeshHelper extends Object3D {
  readonly navMesh: NavMesh;
  readonly mesh: Mesh<BufferGeometry, Material>;
  readonly edges: DebugDrawer;
  autoUpdate: boolean;
  /** Times the geometry was rebuilt (1 after construction). */
  version = 0;
  private readonly detail: boolean;
  private readonly colourBy: NavMeshColourBy;
  private readonly drawEdges: boolean;
  private readonly ownsMaterial: boolean;
  /**
   * Per slot at the last rebuild: the ref of its polygon 0 (salt included, so a tile put
   * back into the same slot still counts as new; 0 when empty), and the off-mesh signature.
   */
  private seenRefs = new Float64Array(0);
  private seenOffMesh = -1;

  constructor(navMesh: NavMesh, options: NavMeshHelperOptions = {}) {
    super();
    this.name = "meshway NavMeshHelper";
    this.navMesh = navMesh;
    this.detail = options.detail !== false;
    this.colourBy = options.colourBy ?? "polygon";
    this.drawEdges = options.edges !== false;
    this.autoUpdate = options.autoUpdate !== false;
    this.ownsMaterial = options.material === undefined;
    const material =
      options.material ??
      new MeshBasicMaterial({
        vertexColors: true,
        transparent: true,
        opacity: 150 / 255,
        depthWrite: false,
        side: DoubleSide,
      });
    this.mesh = new Mesh(new BufferGeometry(), material);
    this.mesh.name = "navmesh surface";
    this.mesh.position.y = options.lift ?? 0.02;
    this.edges = new DebugDrawer();
    this.edges.position.y = this.mesh.position.y;
    this.add(this.mesh, this.edges);
    this.update();
  }

  /** Rebuilds the geometry from the navmesh now. */
  update(): void {
    const g = navMeshGeometry(this.navMesh, { detail: this.detail, colourBy: this.colourBy });
    fillGeometry(this.mesh.geometry, g.positions, g.colours, g.indices);
    if (this.drawEdges) {
      const all = drawNavMesh(this.navMesh, { detail: this.detail, colourBy: this.colourBy });
      this.edges.set(all.filter((p) => p.kind !== "triangles"));
    }
    this.remember();
    this.version++;
  }

  /** True when tiles or off-mesh connections changed since the last rebuild. */
  changed(): boolean {
    const nm = this.navMesh;
    const slots = nm.slots.length;
    if (slots !== this.seenRefs.length || offMeshSignature(nm) !== this.seenOffMesh) return true;
    for (let s = 0; s < slots; s++) if (slotRef(nm, s) !== this.seenRefs[s]) return true;
    return false;
  }

  /** Rebuilds when changed(); returns whether it did. */
  refresh(): boolean {
    if (!this.changed()) return false;
    this.update();
    return true;
  }

  override updateMatrixWorld(force?: boolean): void {
    if (this.autoUpdate) this.refresh();
    super.updateMatrixWorld(force);
  }

  private remember(): void {
    const nm = this.navMesh;
    if (this.seenRefs.length !== nm.slots.length) this.seenRefs = new Float64Array(nm.slots.length);
    for (let s = 0; s < nm.slots.length; s++) this.seenRefs[s] = slotRef(nm, s);
    this.seenOffMesh = offMeshSignature(nm);
  }

  dispose(): void {
    this.mesh.geometry.dispose();
    if (this.ownsMaterial) (this.mesh.material as Material).dispose();
    this.edges.dispose();
  }
}

/**
 * Changes whenever an off-mesh connection is added (the list grows) or removed (its entry
 * becomes null): list length and live count packed in one number.
 */
function offMeshSignature(nm: NavMesh): number {
  let live = 0;
  for (const c of nm.offMesh) if (c !== null) live++;
  return nm.offMesh.length * 4294967296 + live; // length and live count, packed
}

/** Ref of polygon 0 of the tile in `slot` (changes with every add, remove or replace), 0 when empty. */
function slotRef(nm: NavMesh, slot: number): number {
  return nm.tileInSlot(slot) === null ? 0 : nm.polyRef(slot, 0);
}
