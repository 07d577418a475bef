import type { DebugPrimitive } from "../../src/debug/index.js";
import type { TriangleMesh } from "../../src/input.js";

export function hashDrawing(prims: DebugPrimitive[]): string;
export function debugDrawings(
  api: Record<string, unknown>,
  mesh: TriangleMesh,
): Record<string, { sha256: string; vertices: number }>;
