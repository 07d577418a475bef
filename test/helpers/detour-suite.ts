/**
 * Lifecycle of the Detour navmeshes a describe block builds (see detour.ts): Recast's WebAssembly
 * is initialised before the block's tests and every build pushed to the returned list is freed
 * after them. Usage, inside describe():
 *
 *   const builds = detourBuildsForSuite();
 *   it("…", () => { const b = buildDetourNavMesh(mesh, cfg); builds.push(b); … });
 */
import { afterAll, beforeAll } from "vitest";
import type { DetourBuild } from "./detour.js";
import { initRecast } from "./recast.js";

/** Registers beforeAll(initRecast) and afterAll(free every pushed build) in the current suite. */
export function detourBuildsForSuite(): DetourBuild[] {
  const builds: DetourBuild[] = [];
  beforeAll(async () => {
    await initRecast();
  });
  afterAll(() => {
    for (const b of builds) b.free();
  });
  return builds;
}
