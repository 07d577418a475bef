// Size fixture, navcat's build + findPath (the comparison the issue quotes).
import { DEFAULT_QUERY_FILTER, findPath } from "navcat";
import { generateSoloNavMesh } from "navcat/blocks";

export function run(positions, indices, options) {
  const { navMesh } = generateSoloNavMesh({ positions, indices }, options);
  return findPath(navMesh, [0, 0, 0], [10, 0, 10], [1, 1, 1], DEFAULT_QUERY_FILTER).path.length;
}
