// The GLB container (GLB 2.0: a 12-byte header, then chunks): JSON chunk and BIN chunk.
import { fail } from "./json.js";

export const GLB_MAGIC = 0x46546c67; // "glTF"
export const CHUNK_JSON = 0x4e4f534a; // "JSON"
export const CHUNK_BIN = 0x004e4942; // "BIN\0"

export function isGlb(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && readU32(bytes, 0) === GLB_MAGIC;
}

export function readU32(bytes: Uint8Array, at: number): number {
  return (
    (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0
  );
}

export function describeMagic(bytes: Uint8Array, at = 0): string {
  const n = Math.min(4, bytes.length - at);
  if (n <= 0) return "the end of the file";
  const b = bytes.subarray(at, at + n);
  if (b.every((c) => c >= 0x20 && c < 0x7f)) return `"${String.fromCharCode(...b)}"`;
  return `bytes ${Array.from(b, (c) => c.toString(16).padStart(2, "0")).join(" ")}`;
}

/** Splits a GLB into its JSON chunk and optional BIN chunk (GLB 2.0: 12-byte header, chunks). */
export function readGlbContainer(
  bytes: Uint8Array,
  source: string,
): { jsonBytes: Uint8Array; bin: Uint8Array | null; warnings: string[] } {
  const warnings: string[] = [];
  if (bytes.length < 12) {
    if (bytes.length >= 4 && isGlb(bytes))
      fail(source, `truncated GLB: ${bytes.length} bytes, shorter than the 12-byte header`);
    fail(source, `bad GLB magic: expected "glTF", found ${describeMagic(bytes)}`);
  }
  if (!isGlb(bytes)) fail(source, `bad GLB magic: expected "glTF", found ${describeMagic(bytes)}`);
  const version = readU32(bytes, 4);
  if (version !== 2) fail(source, `GLB version ${version} is not supported (expected 2)`);
  const length = readU32(bytes, 8);
  if (length > bytes.length) {
    fail(
      source,
      `truncated GLB: the header declares ${length} bytes but the file has ${bytes.length}`,
    );
  }
  if (length < 20)
    fail(source, `bad GLB header: total length ${length} leaves no room for a chunk`);
  if (length < bytes.length) {
    warnings.push(`${source}: ${bytes.length - length} bytes after the GLB's declared end ignored`);
  }
  let jsonBytes: Uint8Array | null = null;
  let bin: Uint8Array | null = null;
  let at = 12;
  for (let chunk = 0; at < length; chunk++) {
    if (length - at < 8) {
      fail(
        source,
        `bad GLB chunk ${chunk} at byte ${at}: ${length - at} bytes left, too few for a chunk header`,
      );
    }
    const chunkLength = readU32(bytes, at);
    const type = readU32(bytes, at + 4);
    const typeName =
      type === CHUNK_JSON ? "JSON" : type === CHUNK_BIN ? "BIN" : `type 0x${type.toString(16)}`;
    const room = length - at - 8;
    if (chunkLength > room) {
      fail(
        source,
        `bad GLB chunk length: chunk ${chunk} (${typeName}) at byte ${at} declares ${chunkLength} bytes but only ${room} remain in the file`,
      );
    }
    const data = bytes.subarray(at + 8, at + 8 + chunkLength);
    if (chunk === 0) {
      if (type !== CHUNK_JSON)
        fail(source, `bad GLB: the first chunk must be JSON, found ${typeName}`);
      jsonBytes = data;
    } else if (type === CHUNK_BIN && bin === null) {
      bin = data;
    }
    at += 8 + chunkLength;
  }
  if (jsonBytes === null) fail(source, "bad GLB: no JSON chunk");
  return { jsonBytes, bin, warnings };
}
