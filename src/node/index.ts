// meshway/node: the Node-only helpers (files, PNG, glTF). The core ("meshway") needs none of them.
export {
  type GltfLoadResult,
  type GltfParseOptions,
  loadGltfMesh,
  parseGlb,
  parseGltf,
} from "./gltf.js";
export {
  type LoadedNavMeshFile,
  loadNavMeshFile,
  type SaveFileSystem,
  saveNavMeshFile,
} from "./navmesh-files.js";
export { encodePng } from "./png.js";
// Tile cache built on worker threads.
export { createTileCacheNode } from "./tile-cache-node.js";
// Tiled builds on worker threads.
export {
  buildTiledNavMeshNode,
  defaultTileThreads,
  NodeTilePool,
} from "./tile-pool.js";
