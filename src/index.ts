// meshway: triangle soup in, convex-polygon navigation mesh out.

export {
  type BuildConfig,
  DEFAULT_CONFIG,
  type Partition,
  type ResolvedConfig,
  resolveConfig,
} from "./config.js";
export { MeshwayError, type MeshwayErrorCode } from "./errors.js";
export { importDetourNavMesh } from "./format/detour-import.js";
export {
  deserializeNavMesh,
  deserializeNavMeshTile,
  NAVMESH_FORMAT_VERSION,
  serializeNavMesh,
  serializeNavMeshTile,
} from "./format/navmesh-file.js";
export { type LoadedNavMesh, readNavMeshBytes } from "./format/read.js";
export {
  markBoxArea,
  markConvexPolyArea,
  markCylinderArea,
  medianFilterWalkableArea,
} from "./generate/areas.js";
export type { BuildHooks } from "./generate/build-hooks.js";
export {
  type AreaVolume,
  type BuildIntermediates,
  type BuildOptions,
  type BuildResult,
  type BuildStats,
  buildNavMesh,
} from "./generate/build-nav-mesh.js";
export { buildCompactHeightfield } from "./generate/compact.js";
export { BuildContext } from "./generate/context.js";
export {
  buildContours,
  CONTOUR_TESS_AREA_EDGES,
  CONTOUR_TESS_WALL_EDGES,
} from "./generate/contours.js";
export { buildPolyMeshDetail } from "./generate/detail.js";
export { buildDistanceField } from "./generate/distance-field.js";
export { erodeWalkableArea } from "./generate/erode.js";
export {
  filterLedgeSpans,
  filterLowHangingWalkableObstacles,
  filterWalkableLowHeightSpans,
} from "./generate/filter.js";
export { computeBounds, gridSize } from "./generate/grid.js";
export { addSpan, countSpans, createHeightfield } from "./generate/heightfield.js";
export { createNavMeshTile } from "./generate/nav-mesh-tile.js";
export { buildPolyMesh } from "./generate/polymesh.js";
export { markWalkableTriangles, rasterizeTriangles, SKIP_TRIANGLE } from "./generate/rasterize.js";
export { buildRegionsLayers } from "./generate/regions-layers.js";
export { buildRegionsMonotone } from "./generate/regions-monotone.js";
export { buildRegionsWatershed } from "./generate/regions-watershed.js";
export * from "./generate/types.js";
export { type TriangleMesh, type TriangleMeshInput, validateTriangleMesh } from "./input.js";
export { parseObj } from "./io/obj.js";
// Explainer lesson "from cells to faces" (issue 5): scene, criteria, tables, pictures.
export {
  clearLessonCache,
  DEFAULT_LESSON_SETTINGS,
  formatLessonTables,
  hitTestLesson,
  LESSON_RADIUS,
  LESSON_SCENE,
  type LessonCheck,
  type LessonHit,
  type LessonLang,
  type LessonMethod,
  type LessonPathView,
  type LessonResult,
  type LessonSettings,
  type LessonShape,
  type LessonTable,
  lessonBuildConfig,
  lessonRadii,
  lessonToJson,
  lessonTriangleMesh,
  MESSAGES as LESSON_MESSAGES,
  resolveLessonSettings,
  runLesson,
  t as lessonText,
} from "./lesson/index.js";
export {
  LESSON_CANVAS,
  LESSON_SCALE,
  type LessonSection,
  lessonPixelToWorld,
  renderLessonSection,
} from "./lesson/pictures.js";
export { buildTileBVTree } from "./navmesh/bvtree.js";
export { countConnectedComponents } from "./navmesh/components.js";
export {
  type GetCostFn,
  type PassFilterFn,
  QueryFilter,
} from "./navmesh/filter.js";
export {
  type FloodFillResult,
  floodFillNavMesh,
  isReachable,
  pruneUnreachable,
} from "./navmesh/flood-fill.js";
export {
  closestPointOnPoly,
  closestPointOnPolyBoundary,
  DETAIL_EDGE_BOUNDARY,
  distancePtSegSqrXZ,
  pointInPolyXZ,
  polyCenter,
  polyHeight,
  segmentParamXZ,
} from "./navmesh/geometry.js";
export { LinkPool } from "./navmesh/links.js";
export {
  // classifyRef: stale refs give queries status "invalidRef", malformed ones throw.
  classifyRef,
  NavMesh,
  type NavMeshParams,
  navMeshArea,
  OFF_MESH_SLOT,
  type OffMeshConnection,
  type OffMeshConnectionInfo,
  type RefClass,
} from "./navmesh/nav-mesh.js";
export {
  collectNeighbours,
  getPolyArea,
  getPolyFlags,
  getPortalPoints,
  LINK_EDGE_OFF_MESH,
  LINK_SIDE_NONE,
  MAX_NEIGHBOURS,
} from "./navmesh/neighbours.js";
export {
  encodePolyRef,
  type PolyRef,
  polyOfRef,
  saltOfRef,
  tileOfRef,
} from "./navmesh/poly-ref.js";
export { markTileStateChanged, tileStateVersion } from "./navmesh/poly-state.js";
export { queryPolygonsInTile } from "./navmesh/spatial.js";
export {
  EDGE_TILE_BORDER,
  EDGE_WALL,
  type NavMeshTile,
  POLY_FLAG_WALK,
  polygonAreaXZ,
} from "./navmesh/tile.js";
export { oppositeSide } from "./navmesh/tile-links.js";
export {
  type NavMeshValidation,
  type ValidateOptions,
  validateNavMesh,
} from "./navmesh/validate.js";
export { type PolyVolume, pointInVolume } from "./navmesh/volume.js";
export {
  DistanceToWallResult,
  findDistanceToWall,
} from "./query/distance-to-wall.js";
export {
  type FindPathResult,
  H_SCALE,
  MAX_EXPANSIONS_PER_NODE,
  PathFinder,
  type SlicedStatus,
} from "./query/find-path.js";
export {
  MOVE_MAX_QUEUE,
  MoveAlongSurfaceResult,
  moveAlongSurface,
} from "./query/move-along-surface.js";
export {
  type ComputePathOptions,
  type ComputePathResult,
  createFindPathResult,
  createNearestPolyResult,
  DEFAULT_HALF_EXTENTS,
  NavMeshQuery,
  type NavMeshQueryOptions,
  type NearestPolyResult,
} from "./query/nav-mesh-query.js";
export {
  MAX_NODE_STATES,
  NODE_CLOSED,
  NODE_OPEN,
  NODE_PARENT_DETACHED,
  NodePool,
  NodeQueue,
  NULL_NODE,
} from "./query/node-pool.js";
export {
  findPolysAroundCircle,
  PolysAroundCircleResult,
} from "./query/polys-around-circle.js";
export {
  findRandomPoint,
  findRandomPointAroundCircle,
  mulberry32,
  RandomPointResult,
} from "./query/random-point.js";
export {
  RAYCAST_MAX_POLYS,
  RaycastHit,
  type RaycastOptions,
  raycast,
} from "./query/raycast.js";
// Exact shortest paths (any-angle, Polyanya-style): NavMeshQuery.findShortestPath and the
// allocation-free finder behind it.
export { ShortestPath } from "./query/shortest-path/reconstruct.js";
export {
  DEFAULT_SHORTEST_MAX_NODES,
  ShortestPathFinder,
} from "./query/shortest-path/search.js";
export type { QueryStatus } from "./query/status.js";
export {
  findStraightPath,
  STRAIGHT_PATH_END,
  STRAIGHT_PATH_OFFMESH,
  STRAIGHT_PATH_START,
  StraightPath,
  type StraightPathOptions,
} from "./query/straight-path.js";
export {
  AA_SUBSCANLINES,
  BLACK,
  blendPixel,
  clearImage,
  createImage,
  type DrawOptions,
  drawLine,
  drawPolyline,
  drawSegments,
  type FillOptions,
  type FillRule,
  fillCircle,
  fillPolygon,
  fillPolygonValue,
  fillRect,
  fillTriangle,
  getPixel,
  type LineCap,
  parseHexColour,
  type Rgba,
  type RgbaImage,
  rgba,
  type StrokeOptions,
  setPixel,
  strokeCircle,
  TRANSPARENT,
  WHITE,
} from "./render/raster.js";
export { layoutToSvg, renderTopDownSvg } from "./render/svg.js";
export {
  areaColour,
  DEFAULT_RENDER_SIZE,
  drawLayout,
  layoutTopDown,
  POLY_FILL_ALPHA,
  polyRing,
  renderTopDown,
  type TopDownLayout,
  type TopDownOptions,
  type TopDownStyle,
} from "./render/top-down.js";
export {
  type BoundsXZ,
  emptyBounds,
  fitView,
  type TopDownView,
  unionBounds,
  viewForSize,
  viewX,
  viewY,
} from "./render/view.js";
// --- Tiled builds (tile grid, per-tile stages, buildTiledNavMesh, tile pools) ---
export {
  binTriangles,
  buildTileCompact,
  buildTileFromCompact,
  type TileFromCompactOptions,
  type TriangleBins,
} from "./tiles/build-tile.js";
export {
  buildTiledNavMesh,
  type TiledBuildOptions,
  type TiledBuildResult,
  type TiledBuildStats,
} from "./tiles/build-tiled.js";
// --- Tile cache built on workers (createTileCacheAsync; compact heightfield blocks) ---
export {
  compactHeightfieldByteLength,
  deserializeCompactHeightfield,
  serializeCompactHeightfield,
  writeCompactHeightfield,
} from "./tiles/compact-codec.js";
// --- Runtime obstacles and area volumes over a tiled navmesh (TileCache) ---
export {
  areaVolumeBounds,
  type Bounds3,
  markAreaVolume,
  markObstacle,
  type ObstacleShape,
  obstacleAsAreaVolume,
  obstacleBounds,
  orientedBoxCorners,
  validateAreaVolume,
  validateObstacleShape,
} from "./tiles/obstacles.js";
export {
  buildTileBlock,
  InProcessTilePool,
  prepareTileBuild,
  type TileBuildPool,
  type TileBuildSetup,
  type TileBuildState,
  type TileResultHandler,
} from "./tiles/pool.js";
export {
  createTileCache,
  TileCache,
  type TileCacheOptions,
  type TileCacheStats,
  type TileCacheUpdate,
} from "./tiles/tile-cache.js";
export {
  createTileCacheAsync,
  type TileCacheAsyncOptions,
  type TileCacheAsyncResult,
} from "./tiles/tile-cache-async.js";
export { createTileGrid, type TileGrid, tileBounds, tilesTouchingBox } from "./tiles/tile-grid.js";
export { createWebWorkerTilePool } from "./tiles/web-worker-pool.js";
export { type TileWorkerPort, WorkerTilePool } from "./tiles/worker-pool.js";
export {
  createTileWorkerHandler,
  type TileWorkerReply,
  type TileWorkerRequest,
} from "./tiles/worker-protocol.js";
