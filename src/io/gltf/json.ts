// Small checks over the parsed JSON: every failure is a MeshwayError naming the file and the
// JSON path (e.g. "accessors[3].count"), never a TypeError.
import { MeshwayError } from "../../errors.js";

export function fail(source: string, what: string): never {
  throw new MeshwayError("INVALID_INPUT", `${source}: ${what}`);
}

export function show(v: unknown): string {
  if (v === undefined) return "missing";
  let s: string;
  try {
    // JSON.parse reads 1e999 as Infinity; JSON.stringify would print it as null.
    s =
      JSON.stringify(v, (_k, x) =>
        typeof x === "number" && !Number.isFinite(x) ? `\u0000${x}\u0000` : x,
      )?.replace(/"\\u0000([^"]*)\\u0000"/g, "$1") ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

export type Json = Record<string, unknown>;

/** How to raise the glTF size limit, quoted by every refusal. */
export const RAISE = "raise the maxTriangles load option (CLI: --max-triangles N) if this is meant";

/** V8's longest string (0x1fffffe8 UTF-16 units); UTF-8 text of more bytes may not fit. */
export const MAX_JSON_BYTES = 0x1fffffe8;

export function jsonTooLong(bytes: number, what: string): string {
  return `${what} holds ${bytes} bytes of JSON text, more than the ${MAX_JSON_BYTES} characters of JavaScript's longest string; save it as .glb (binary glTF, geometry in its BIN chunk)`;
}

export function parseJsonText(bytes: Uint8Array, source: string, what: string): unknown {
  if (bytes.length > MAX_JSON_BYTES) fail(source, jsonTooLong(bytes.length, what));
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    fail(source, `${what} is not valid UTF-8 text`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    fail(source, `${what} is not valid JSON (${(e as Error).message})`);
  }
}

/** Resolves `v` as an index into an array of `length` items named `into`. */
export function index(
  source: string,
  v: unknown,
  path: string,
  length: number,
  into: string,
): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v >= length) {
    const range =
      length === 0
        ? `the file has no ${into}`
        : `expected an index into ${into} (0..${length - 1})`;
    fail(source, `${path} is ${show(v)}; ${range}`);
  }
  return v;
}

export function integer(
  source: string,
  v: unknown,
  path: string,
  min: number,
  fallback?: number,
): number {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min) {
    fail(source, `${path} is ${show(v)}; expected an integer >= ${min}`);
  }
  return v;
}

export function array(source: string, v: unknown, path: string): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(source, `${path} is ${show(v)}; expected an array`);
  return v;
}

export function object(source: string, v: unknown, path: string): Json {
  if (!isObject(v)) fail(source, `${path} is ${show(v)}; expected an object`);
  return v;
}

export function numbers(source: string, v: unknown, path: string, n: number): number[] {
  if (
    !Array.isArray(v) ||
    v.length !== n ||
    !v.every((x) => typeof x === "number" && Number.isFinite(x))
  ) {
    fail(source, `${path} is ${show(v)}; expected ${n} finite numbers`);
  }
  return v as number[];
}
