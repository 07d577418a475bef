// Size fixture, runtime only, lean: the same app as runtime.js with NavMeshQueryCore (findPath,
// straight path, computePath, nearest polygon) and raycast as a free function, so the other
// queries (NavMeshQuery's forwarding methods) are not shipped.
import { deserializeNavMesh, NavMeshQueryCore, RaycastHit, raycast } from "meshway";

export function run(bytes) {
  const { navMesh } = deserializeNavMesh(bytes, "level.navmesh");
  const query = new NavMeshQueryCore(navMesh);
  const path = query.computePath([0, 0, 0], [10, 0, 10]);
  const near = query.findNearestPoly([1, 0, 1]);
  const hit = raycast(
    query,
    near.ref,
    near.point,
    [5, 0, 5],
    query.defaultFilter,
    undefined,
    new RaycastHit(),
  );
  return [path.points.length, hit.t];
}
