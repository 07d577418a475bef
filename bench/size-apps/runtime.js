// Size fixture, runtime only: load a .navmesh (bytes from anywhere) and query it.
import { deserializeNavMesh, NavMeshQuery } from "meshway";

export function run(bytes) {
  const { navMesh } = deserializeNavMesh(bytes, "level.navmesh");
  const query = new NavMeshQuery(navMesh);
  const path = query.computePath([0, 0, 0], [10, 0, 10]);
  const near = query.findNearestPoly([1, 0, 1]);
  const hit = query.raycast(near.ref, near.point, [5, 0, 5]);
  return [path.points.length, hit.t];
}
