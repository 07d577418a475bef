// The tiled builders under comparison: meshway on 1 thread (in-process) and on N worker threads,
// recast-navigation's generateTiledNavMesh (WASM), all with the same config and tile size.
import { buildTiledNavMesh, resolveConfig } from "../dist/index.js";
import { buildTiledNavMeshNode, NodeTilePool } from "../dist/node.js";
import { recastGeneratorConfig } from "./generator-config.js";

/**
 * Builders by name: "wasm", "meshway-1", "meshway-2", … (meshway-N keeps a pool of N worker
 * threads), "node-N" (buildTiledNavMeshNode with threads N, the default path: the calling thread
 * builds too, its workers kept warm between builds and used within the machine's idle cores).
 */
export async function makeTiledBuilders(tileSize, names) {
  const out = {};
  const pools = [];
  for (const name of names) {
    if (name === "wasm") {
      const core = await import("@recast-navigation/core");
      await core.init();
      const { generateTiledNavMesh } = await import("@recast-navigation/generators");
      const config = { ...recastGeneratorConfig(resolveConfig({ tileSize })), tileSize };
      out.wasm = (mesh) => {
        const r = generateTiledNavMesh(mesh.positions, mesh.indices, config);
        if (!r.success) throw new Error(`recast wasm failed: ${r.error}`);
        let polys = 0;
        let tiles = 0;
        for (let i = 0; i < r.navMesh.getMaxTiles(); i++) {
          const h = r.navMesh.getTile(i).header();
          if (!h) continue;
          tiles++;
          polys += h.polyCount();
        }
        r.navMesh.destroy();
        return { tiles, polys };
      };
      continue;
    }
    const threads = Number(name.split("-")[1]);
    if (name.startsWith("node-")) {
      out[name] = async (mesh) => {
        const r = await buildTiledNavMeshNode(mesh, { tileSize }, { threads });
        return { tiles: r.stats.tiles, polys: r.stats.polygons };
      };
      continue;
    }
    const pool = threads > 1 ? new NodeTilePool(threads) : undefined;
    if (pool) pools.push(pool);
    out[name] = async (mesh) => {
      const r = await buildTiledNavMesh(mesh, { tileSize }, { pool });
      return { tiles: r.stats.tiles, polys: r.stats.polygons };
    };
  }
  out.close = () => Promise.all(pools.map((p) => p.close()));
  return out;
}
