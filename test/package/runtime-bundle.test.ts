import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build, type Rolldown } from "vite";
import { describe, expect, it } from "vitest";

// Issue 17: an app that only loads a .navmesh and queries it must not ship the builder. The
// fixture app of the size bench (bench/size-apps/runtime.js) is bundled with Vite against the
// built package (dist/, from pretest) as a user's app would be; none of src/generate's exported
// functions or classes may be in it. The bench reports the sizes; this only checks the content.
const ROOT = resolve(import.meta.dirname, "../..");

/** Every `export function|class NAME` of src/generate/. */
function builderNames(): string[] {
  const dir = join(ROOT, "src/generate");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .flatMap((f) =>
      [...readFileSync(join(dir, f), "utf8").matchAll(/^export (?:function|class) (\w+)/gm)].map(
        (m) => m[1]!,
      ),
    );
}

/** The fixture app bench/size-apps/<app> bundled with Vite against dist/, unminified. */
async function bundle(app: string): Promise<string> {
  const out = (await build({
    configFile: false,
    logLevel: "silent",
    root: ROOT,
    resolve: { alias: [{ find: /^meshway$/, replacement: join(ROOT, "dist/index.js") }] },
    build: {
      write: false,
      minify: false,
      modulePreload: false,
      rollupOptions: {
        input: join(ROOT, "bench/size-apps", app),
        preserveEntrySignatures: "strict",
      },
    },
  })) as Rolldown.RolldownOutput;
  return out.output
    .filter((c): c is Rolldown.OutputChunk => c.type === "chunk")
    .map((c) => c.code)
    .join("\n");
}

/** Bundlers rename clashing declarations to NAME$1 …, so match the name with any such tail. */
function declared(names: string[], code: string): string[] {
  return names.filter((n) =>
    new RegExp(`(?:function|class) ${n}(?:\\$\\d+)?\\b|\\b${n}(?:\\$\\d+)? = class\\b`).test(code),
  );
}

describe("runtime-only bundle", () => {
  it("holds no builder code (nothing of src/generate) and no exact shortest path", async () => {
    const code = await bundle("runtime.js");
    // The app does use the runtime: NavMeshQuery and the reader are there.
    expect(code).toMatch(/NavMeshQuery = class\b|class NavMeshQuery\b/);
    expect(code).toMatch(/function deserializeNavMesh\b/);
    const names = builderNames();
    expect(names.length).toBeGreaterThan(30);
    expect(declared(names, code)).toEqual([]);
    // Nor the exact shortest path: a free function the app does not call (was a method).
    expect(code).not.toMatch(/ShortestPathFinder|function findShortestPath\b/);
  });

  // NavMeshQueryCore + raycast(query, …): none of the queries NavMeshQuery only forwards to.
  it("with NavMeshQueryCore, holds none of the other queries", async () => {
    const code = await bundle("runtime-lean.js");
    expect(code).toMatch(/function raycast\b/);
    expect(declared(builderNames(), code)).toEqual([]);
    const others = [
      "moveAlongSurface",
      "findDistanceToWall",
      "findRandomPoint",
      "findRandomPointAroundCircle",
      "findPolysAroundCircle",
      "findPolysAroundShape",
      "findLocalNeighbourhood",
      "getPolyWallSegments",
      "finalizeSlicedPartial",
      "NavMeshQuery",
    ];
    expect(declared(others, code)).toEqual([]);
  });
});

describe("build + queries bundle", () => {
  // buildNavMeshCore with the default partition: the watershed only (buildNavMesh takes all).
  it("with buildNavMeshCore, holds the watershed and neither other region partition", async () => {
    const code = await bundle("build-lean.js");
    expect(declared(["buildRegionsWatershed", "buildPolyMeshDetail"], code)).toHaveLength(2);
    expect(declared(["buildRegionsMonotone", "buildRegionsLayers"], code)).toEqual([]);
  });
});
