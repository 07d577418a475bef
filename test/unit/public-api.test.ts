import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";
import * as lesson from "../../src/lesson/public.js";
import * as node from "../../src/node/index.js";
import * as render from "../../src/render/index.js";

describe('the public API (README "API")', () => {
  it("does not publish internals", () => {
    const internals = [
      "NodePool",
      "NodeQueue",
      "NODE_OPEN",
      "NODE_CLOSED",
      "NULL_NODE",
      "H_SCALE",
      "MAX_EXPANSIONS_PER_NODE",
      "LESSON_MESSAGES",
      "lessonText",
      "LinkPool",
      "OFF_MESH_SLOT",
      "releaseScratch",
      "pickBuildConfig",
      "isMeshwayNavMeshFile",
      "NAVMESH_MAGIC",
      "MAX_GRID_SIDE",
    ];
    expect(internals.filter((n) => n in api)).toEqual([]);
  });

  it("publishes each part's entry points", () => {
    for (const n of [
      "buildNavMesh",
      "BuildScratch",
      "toBuildConfig",
      "serializeNavMesh",
      "readNavMeshBytes",
      "NavMeshQuery",
      "NavMeshQueryCore",
      "buildTiledNavMesh",
      "createTileCache",
      "parseObj",
      "MeshwayError",
    ]) {
      expect(typeof (api as Record<string, unknown>)[n], n).toBe("function");
    }
    for (const n of ["loadGltfMesh", "loadNavMeshFile", "writeFileAtomic", "describeFsError"]) {
      expect(typeof (node as Record<string, unknown>)[n], n).toBe("function");
    }
    for (const n of ["runLesson", "renderLessonSection", "formatLessonTables"]) {
      expect(typeof (lesson as Record<string, unknown>)[n], n).toBe("function");
    }
    for (const n of ["renderTopDown", "renderTopDownSvg", "createImage", "fillPolygon"]) {
      expect(typeof (render as Record<string, unknown>)[n], n).toBe("function");
    }
  });

  it("keeps the lesson and the renderer out of the root (meshway/lesson, meshway/render)", () => {
    const moved = [...Object.keys(lesson), ...Object.keys(render)];
    expect(moved.length).toBeGreaterThan(40);
    expect(moved.filter((n) => n in api)).toEqual([]);
  });
});
