// Size fixture, build + queries: build a navmesh from triangles and find a path on it.
import { buildNavMesh, NavMeshQuery } from "meshway";

export function run(positions, indices) {
  const { navMesh } = buildNavMesh({ positions, indices }, { agentRadius: 0.4 });
  return new NavMeshQuery(navMesh).computePath([0, 0, 0], [10, 0, 10]).points.length;
}
