import { Object3D } from "three";
import { drawObstacles } from "../debug/volumes.js";
import type { TileCache } from "../tiles/tile-cache.js";
import { DebugDrawer } from "./debug-drawer.js";

/** What TileCacheHelper reads of a tile cache. */
export type TileCacheLike = Pick<TileCache, "obstacleIds" | "obstacleShape">;

/**
 * A tile cache's obstacles in a three.js scene (translucent solids with edges, in the
 * palette's obstacle colour). Watches the cache each frame (autoUpdate) and redraws when an
 * obstacle is added, moved, reshaped or removed. Pair it with a NavMeshHelper on
 * `cache.navMesh` to see the navmesh follow as `cache.update()` rebuilds tiles.
 */
export class TileCacheHelper extends Object3D {
  readonly tileCache: TileCacheLike;
  readonly drawer = new DebugDrawer();
  autoUpdate: boolean;
  /** Times the obstacles were redrawn. */
  version = 0;
  private seenIds: number[] = [];
  private seenShapes: unknown[] = [];

  constructor(tileCache: TileCacheLike, options: { autoUpdate?: boolean } = {}) {
    super();
    this.name = "meshway TileCacheHelper";
    this.tileCache = tileCache;
    this.autoUpdate = options.autoUpdate !== false;
    this.add(this.drawer);
    this.update();
  }

  /** Redraws every obstacle now. */
  update(): void {
    const ids = this.tileCache.obstacleIds();
    const shapes = ids.map((id) => this.tileCache.obstacleShape(id));
    this.drawer.set(drawObstacles(shapes.filter((s) => s !== undefined)));
    this.seenIds = ids;
    this.seenShapes = shapes;
    this.version++;
  }

  /** True when obstacles changed since the last redraw (the cache stores a new frozen shape per update). */
  changed(): boolean {
    const ids = this.tileCache.obstacleIds();
    if (ids.length !== this.seenIds.length) return true;
    for (let i = 0; i < ids.length; i++) {
      if (ids[i] !== this.seenIds[i]) return true;
      if (this.tileCache.obstacleShape(ids[i]!) !== this.seenShapes[i]) return true;
    }
    return false;
  }

  refresh(): boolean {
    if (!this.changed()) return false;
    this.update();
    return true;
  }

  override updateMatrixWorld(force?: boolean): void {
    if (this.autoUpdate) this.refresh();
    super.updateMatrixWorld(force);
  }

  dispose(): void {
    this.drawer.dispose();
  }
}
