import type { BuildConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import { importDetourNavMesh } from "./detour-import.js";
import { deserializeNavMesh } from "./navmesh-file.js";

/** What {@link readNavMeshBytes} (and meshway/node's loadNavMeshFile) return. */
export interface LoadedNavMesh {
  navMesh: NavMesh;
  /** The build config stored in a meshway file; null for Detour exports or when none was stored. */
  config: BuildConfig | null;
  /** "meshway": a `.navmesh` file; "detour": recast-navigation's exportNavMesh ('MSET'). */
  format: "meshway" | "detour";
  /** The meshway format version, or the Detour navmesh-set version. */
  version: number;
}

/** recast-navigation's navmesh-set magic 'MSET', stored as a little-endian int. */
const DETOUR_SET_MAGIC = [0x54, 0x45, 0x53, 0x4d];
const MESHWAY_MAGIC = [0x4d, 0x57, 0x4e, 0x4d];

/**
 * Reads navmesh bytes in any format meshway knows: a meshway `.navmesh` ("MWNM",
 * {@link deserializeNavMesh}) or a Detour navmesh set exported by recast-navigation ('MSET',
 * importDetourNavMesh), told apart by the first four bytes. Platform-free (browsers too).
 * `source` names the bytes in error messages: MeshwayError("INVALID_INPUT",
 * "<source>: <what is wrong, where>") for empty or malformed input.
 */
export function readNavMeshBytes(bytes: Uint8Array, source: string): LoadedNavMesh {
  if (bytes.length === 0) {
    throw new MeshwayError("INVALID_INPUT", `${source}: empty file, expected a navmesh`);
  }
  const starts = (magic: readonly number[]) =>
    magic.every((b, i) => i >= bytes.length || bytes[i] === b);
  // A file shorter than a magic that it begins like goes to that reader, which says "truncated".
  if (starts(MESHWAY_MAGIC)) {
    const { navMesh, config, version } = deserializeNavMesh(bytes, source);
    return { navMesh, config, format: "meshway", version };
  }
  if (starts(DETOUR_SET_MAGIC)) {
    const navMesh = importDetourNavMesh(bytes, source);
    const version = new DataView(bytes.buffer, bytes.byteOffset).getInt32(4, true);
    return { navMesh, config: null, format: "detour", version };
  }
  let shown = "";
  for (const c of bytes.subarray(0, 4)) {
    shown +=
      c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, "0")}`;
  }
  throw new MeshwayError(
    "INVALID_INPUT",
    `${source}: not a navmesh file: bad magic '${shown}', expected 'MWNM' (meshway .navmesh) or 'MSET' (Detour navmesh export) at byte 0`,
  );
}
