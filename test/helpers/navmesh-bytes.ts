import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { tileArrayBytes } from "./tile-arrays.js";

/** Concatenates every typed array of every tile (see tile-arrays.js), for byte-identity checks. */
export function navMeshBytes(navMesh: NavMesh): Uint8Array {
  const parts = tileArrayBytes(navMesh);
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
