// Navmesh bytes: the .navmesh format, the Detour import, format detection. Platform-free.
export { exportDetourNavMesh } from "./detour-export.js";
export { importDetourNavMesh } from "./detour-import.js";
export { mergeNavMeshes, mergeNavMeshFiles, type NavMeshPart } from "./merge.js";
export {
  deserializeNavMesh,
  deserializeNavMeshTile,
  NAVMESH_FORMAT_VERSION,
  serializeNavMesh,
  serializeNavMeshTile,
} from "./navmesh-file.js";
export { type LoadedNavMesh, readNavMeshBytes } from "./read.js";
