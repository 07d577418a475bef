import { readFileSync } from "node:fs";
import { MeshwayError } from "../errors.js";
import { TileCache } from "../tiles/tile-cache.js";
import { describeFsError } from "./errno.js";
import { writeFileAtomic } from "./write-file-atomic.js";

/**
 * Writes `cache.serialize()` to `path` atomically (temporary file, then rename): a crash
 * mid-save leaves the previous file whole. Throws MeshwayError("INVALID_INPUT") naming the
 * path when the file cannot be written.
 */
export function saveTileCacheFile(path: string, cache: TileCache): void {
  const bytes = cache.serialize();
  try {
    writeFileAtomic(path, bytes);
  } catch (e) {
    if (e instanceof MeshwayError) throw e;
    throw new MeshwayError("INVALID_INPUT", `${path}: ${describeFsError(e, "write")}`);
  }
}

/**
 * Reads a tile cache saved by {@link saveTileCacheFile} (TileCache.deserialize; nothing is
 * rebuilt). Throws MeshwayError("INVALID_INPUT", "<path>: <what is wrong, where>") for a
 * missing, unreadable or damaged file.
 */
export function loadTileCacheFile(path: string): TileCache {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new MeshwayError(
      "INVALID_INPUT",
      `${path}: ${describeFsError(e, "read", "a tile cache file")}`,
    );
  }
  // Own the memory (small reads share Node's pool) so the cache's views pin nothing else.
  if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength)
    bytes = new Uint8Array(bytes);
  return TileCache.deserialize(bytes, path);
}
