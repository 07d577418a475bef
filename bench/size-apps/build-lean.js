// Size fixture, build + queries, lean: build.js with buildNavMeshCore (only the default
// watershed partition is bundled) and NavMeshQueryCore instead of NavMeshQuery.
import { buildNavMeshCore, NavMeshQueryCore } from "meshway";

export function run(positions, indices) {
  const { navMesh } = buildNavMeshCore({ positions, indices }, { agentRadius: 0.4 });
  return new NavMeshQueryCore(navMesh).computePath([0, 0, 0], [10, 0, 10]).points.length;
}
