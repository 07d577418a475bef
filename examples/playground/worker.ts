/// <reference lib="webworker" />
// The playground's build thread: every build (single tile or tile cache) runs here so the page
// keeps drawing; the result crosses back as bytes (.navmesh or a tile cache image, transferred).
import {
  type BuildConfigInput,
  type BuildIntermediates,
  buildNavMesh,
  createTileCacheAsync,
  serializeNavMesh,
} from "meshway";
import {
  type DebugPrimitive,
  drawCompactHeightfield,
  drawContours,
  drawHeightfield,
  drawPolyMesh,
  drawPolyMeshDetail,
  drawRegionConnections,
} from "meshway/debug";
import type { BuildStage, WirePrimitive, WorkerReply, WorkerRequest } from "./protocol.js";

declare const self: DedicatedWorkerGlobalScope;

/** The last build's input, and a single-tile build of it with intermediates (made on demand). */
let mesh: { positions: Float32Array; indices: Uint32Array; source: string } | null = null;
let config: BuildConfigInput = {};
let intermediates: BuildIntermediates | null = null;

/** Stages buildNavMesh reports through onStage, for the progress bar of a single-tile build. */
const SOLO_STAGES = 12;

function post(reply: WorkerReply, transfer: Transferable[] = []): void {
  self.postMessage(reply, transfer);
}

async function build(id: number): Promise<void> {
  const m = mesh!;
  const t0 = performance.now();
  intermediates = null;
  if ((config.tileSize ?? 0) > 0) {
    const { navMesh, cache, warnings } = await createTileCacheAsync(m, config, {
      source: m.source,
      onTile: (done, total) =>
        post({ type: "progress", id, fraction: done / total, label: `tile ${done}/${total}` }),
    });
    const bytes = cache.serialize();
    const summary = { ...count(navMesh), ms: performance.now() - t0, warnings };
    post({ type: "built", id, tiled: true, bytes, summary }, [bytes.buffer]);
    return;
  }
  let seen = 0;
  const result = buildNavMesh(m, config, {
    source: m.source,
    keepIntermediates: true,
    onStage: (stage) =>
      post({ type: "progress", id, fraction: Math.min(1, ++seen / SOLO_STAGES), label: stage }),
  });
  intermediates = result.intermediates;
  const bytes = serializeNavMesh(result.navMesh, result.intermediates!.config);
  const summary = {
    ...count(result.navMesh),
    ms: performance.now() - t0,
    warnings: result.stats.warnings,
  };
  post({ type: "built", id, tiled: false, bytes, summary }, [bytes.buffer]);
}

function count(navMesh: import("meshway").NavMesh) {
  let polygons = 0;
  let vertices = 0;
  for (const t of navMesh.tiles) {
    polygons += t.polyCount;
    vertices += t.vertexCount;
  }
  return { polygons, vertices, tiles: navMesh.tiles.length };
}

function drawStage(stage: BuildStage, i: BuildIntermediates): DebugPrimitive[] {
  switch (stage) {
    case "heightfield":
      return drawHeightfield(i.heightfield, "solid");
    case "heightfieldWalkable":
      return drawHeightfield(i.heightfield, "walkable");
    case "compactAreas":
      return drawCompactHeightfield(i.compactHeightfield, { mode: "areas" });
    case "distance":
      return drawCompactHeightfield(i.compactHeightfield, {
        mode: "distance",
        distanceField: i.distanceField,
      });
    case "regions":
      return drawCompactHeightfield(i.compactHeightfield, {
        mode: "regions",
        regions: i.regions,
      });
    case "rawContours":
      return drawContours(i.contours, { raw: true });
    case "contours":
      return drawContours(i.contours);
    case "connections":
      return drawRegionConnections(i.contours);
    case "polyMesh":
      return drawPolyMesh(i.polyMesh);
    case "detail":
      return drawPolyMeshDetail(i.polyMeshDetail);
  }
}

function stage(id: number, which: BuildStage): void {
  if (intermediates === null) {
    // A tiled build keeps no whole-level intermediates: build the level as one tile with the
    // same settings (the stages are the same algorithm; tiles only cut the grid).
    post({ type: "progress", id, fraction: 0, label: "single-tile build for stages" });
    let seen = 0;
    intermediates = buildNavMesh(
      mesh!,
      { ...config, tileSize: 0 },
      {
        source: mesh!.source,
        keepIntermediates: true,
        onStage: (s) =>
          post({ type: "progress", id, fraction: Math.min(1, ++seen / SOLO_STAGES), label: s }),
      },
    ).intermediates;
  }
  const primitives: WirePrimitive[] = drawStage(which, intermediates!);
  const transfer = new Set<ArrayBuffer>();
  for (const p of primitives)
    transfer.add(p.positions.buffer as ArrayBuffer).add(p.colours.buffer as ArrayBuffer);
  post({ type: "stage", id, stage: which, primitives }, [...transfer]);
}

self.onmessage = async (e: MessageEvent<WorkerRequest>) => {
  const msg = e.data;
  try {
    if (msg.type === "build") {
      mesh = { positions: msg.positions, indices: msg.indices, source: msg.source };
      config = msg.config;
      await build(msg.id);
    } else if (mesh !== null) {
      stage(msg.id, msg.stage);
    }
  } catch (err) {
    // Bad settings or input: MeshwayError messages name the option or triangle; shown on the page.
    post({ type: "error", id: msg.id, message: err instanceof Error ? err.message : String(err) });
  }
};
