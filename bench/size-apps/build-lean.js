// Size fixture, build + queries, lean: build.js with NavMeshQueryCore instead of NavMeshQuery.
import { buildNavMesh, NavMeshQueryCore } from "meshway";

export function run(positions, indices) {
  const { navMesh } = buildNavMesh({ positions, indices }, { agentRadius: 0.4 });
  return new NavMeshQueryCore(navMesh).computePath([0, 0, 0], [10, 0, 10]).points.length;
}
