// meshway/node: the Node-only helpers (files, PNG, glTF). The core ("meshway") needs none of them.
export { describeFsError } from "./errno.js";
export {
  type GltfLoadResult,
  type GltfParseOptions,
  loadGltfMesh,
  parseGlb,
  parseGltf,
} from "./gltf/index.js";
export { type LoadedNavMeshFile, loadNavMeshFile, saveNavMeshFile } from "./navmesh-files.js";
export { encodePng } from "./png.js";
// Tile cache built on worker threads.
export { createTileCacheNode } from "./tile-cache-node.js";
// Tiled builds on worker threads.
export {
  buildTiledNavMeshNode,
  defaultTileThreads,
  NodeTilePool,
} from "./tile-pool.js";
export { type SaveFileSystem, writeFileAtomic } from "./write-file-atomic.js";
