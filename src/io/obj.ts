import { MeshwayError } from "../errors.js";
import type { TriangleMesh } from "../input.js";

const CH_CR = 13;
const CH_SPACE = 32;
const CH_HASH = 35;
const CH_PLUS = 43;
const CH_MINUS = 45;
const CH_DOT = 46;
const CH_SLASH = 47;
const CH_0 = 48;
const CH_9 = 57;
const CH_E_UPPER = 69;
const CH_E_LOWER = 101;
const CH_F = 102;
const CH_V = 118;

/** Whitespace inside a line: every control character and space (CR/LF end lines earlier). */
function isBlank(c: number): boolean {
  return c <= CH_SPACE;
}

function quoteLine(line: string): string {
  return line.length > 80 ? `"${line.slice(0, 77)}..."` : `"${line}"`;
}

function fail(source: string, lineNo: number, what: string, line: string): never {
  throw new MeshwayError("OBJ_PARSE", `${source}:${lineNo}: ${what}: ${quoteLine(line)}`);
}

/** True if text[start, end) looks like a decimal float (digits, sign, dot, exponent only). */
function isDecimalToken(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (
      !(c >= CH_0 && c <= CH_9) &&
      c !== CH_MINUS &&
      c !== CH_PLUS &&
      c !== CH_DOT &&
      c !== CH_E_LOWER &&
      c !== CH_E_UPPER
    ) {
      return false;
    }
  }
  return true;
}

/** A face whose positive indices point past the vertices read so far; checked at the end. */
interface ForwardRef {
  lineNo: number;
  line: string;
  maxIndex: number;
}

/**
 * Parses Wavefront OBJ text into a triangle mesh. Only `v` and `f` lines matter; every other
 * statement (o, g, s, usemtl, mtllib, vt, vn, vp, l, p, unknown keywords) and `#` comments are
 * ignored. Faces may use `v`, `v/vt`, `v//vn` or `v/vt/vn` and negative (relative) indices;
 * polygons are fan-triangulated as (0, i-1, i) like RecastDemo's loader, so triangle order
 * matches Recast's. `source` names the file in error messages (`source:line: problem: "text"`).
 *
 * Throws MeshwayError "OBJ_PARSE" for malformed `v` / `f` lines and "NO_TRIANGLES" when the file
 * holds no face.
 */
export function parseObj(text: string, source = "input.obj"): TriangleMesh {
  const st: ObjState = {
    text,
    source,
    positions: new Float32Array(3 * 1024),
    vertexCount: 0,
    indices: new Uint32Array(3 * 2048),
    indexLen: 0,
    face: new Uint32Array(16),
    forwardRefs: [],
    lineNo: 0,
    lineStart: 0,
    lineEnd: 0,
  };
  const len = text.length;
  let pos = 0;
  while (pos < len) {
    let lineEnd = text.indexOf("\n", pos);
    if (lineEnd < 0) lineEnd = len;
    const lineStart = pos;
    pos = lineEnd + 1;
    st.lineNo++;
    let end = lineEnd;
    if (end > lineStart && text.charCodeAt(end - 1) === CH_CR) end--;
    st.lineStart = lineStart;
    st.lineEnd = end;

    let i = lineStart;
    while (i < end && isBlank(text.charCodeAt(i))) i++;
    if (i >= end) continue;
    const c0 = text.charCodeAt(i);
    if (c0 !== CH_V && c0 !== CH_F) continue;
    // Keyword must be exactly "v" or "f" (not vt, vn, vp, fo, ...).
    if (i + 1 < end && !isBlank(text.charCodeAt(i + 1))) continue;
    i++;
    // An inline comment ends the statement.
    for (let k = i; k < end; k++) {
      if (text.charCodeAt(k) === CH_HASH) {
        end = k;
        break;
      }
    }
    if (c0 === CH_V) readVertex(st, i, end);
    else readFace(st, i, end);
  }
  return finish(st);
}

/** The parser's growing outputs and the line being read (for messages). */
interface ObjState {
  readonly text: string;
  readonly source: string;
  positions: Float32Array;
  vertexCount: number;
  indices: Uint32Array;
  indexLen: number;
  /** The current face's resolved 0-based vertex indices. */
  face: Uint32Array;
  forwardRefs: ForwardRef[];
  lineNo: number;
  lineStart: number;
  /** End of the current line, before its line break (quoted in messages). */
  lineEnd: number;
}

function lineFail(st: ObjState, what: string): never {
  fail(st.source, st.lineNo, what, st.text.slice(st.lineStart, st.lineEnd));
}

/** `v x y z [w]`; also `x y z r g b` (vertex colours, a common extension). */
function readVertex(st: ObjState, from: number, end: number): void {
  const text = st.text;
  if (st.vertexCount * 3 + 3 > st.positions.length) {
    const grown = new Float32Array(st.positions.length * 2);
    grown.set(st.positions);
    st.positions = grown;
  }
  const positions = st.positions;
  let i = from;
  let n = 0;
  const base = st.vertexCount * 3;
  while (true) {
    while (i < end && isBlank(text.charCodeAt(i))) i++;
    if (i >= end) break;
    const tokStart = i;
    while (i < end && !isBlank(text.charCodeAt(i))) i++;
    if (n < 3) {
      const value = isDecimalToken(text, tokStart, i) ? Number(text.slice(tokStart, i)) : NaN;
      if (!Number.isFinite(value)) {
        lineFail(st, `vertex coordinate "${text.slice(tokStart, i)}" is not a finite number`);
      }
      if (!Number.isFinite(Math.fround(value))) {
        lineFail(st, `vertex coordinate ${text.slice(tokStart, i)} is outside float32 range`);
      }
      positions[base + n] = value;
    } else if (!isDecimalToken(text, tokStart, i)) {
      lineFail(st, `vertex component "${text.slice(tokStart, i)}" is not a number`);
    }
    n++;
  }
  if (n !== 3 && n !== 4 && n !== 6) {
    lineFail(st, `vertex has ${n} numbers, expected 3 (x y z), 4 (x y z w) or 6 (x y z r g b)`);
  }
  st.vertexCount++;
}

/** `f i1 i2 i3 ...`; each token is v, v/vt, v//vn or v/vt/vn. Only v matters. */
function readFace(st: ObjState, from: number, end: number): void {
  const text = st.text;
  let i = from;
  let n = 0;
  let maxPositive = 0;
  while (true) {
    while (i < end && isBlank(text.charCodeAt(i))) i++;
    if (i >= end) break;
    const tokStart = i;
    let neg = false;
    if (text.charCodeAt(i) === CH_MINUS) {
      neg = true;
      i++;
    }
    const digitsStart = i;
    let value = 0;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c < CH_0 || c > CH_9) break;
      value = value * 10 + (c - CH_0);
      i++;
    }
    const digitsEnd = i;
    // The rest of the token must be /vt, //vn or /vt/vn; texture/normal indices are ignored.
    let slashes = 0;
    let badTail = false;
    while (i < end && !isBlank(text.charCodeAt(i))) {
      const c = text.charCodeAt(i);
      if (c === CH_SLASH) slashes++;
      else if (!((c >= CH_0 && c <= CH_9) || c === CH_MINUS)) badTail = true;
      i++;
    }
    if (
      digitsEnd === digitsStart ||
      (digitsEnd < i && text.charCodeAt(digitsEnd) !== CH_SLASH) ||
      badTail ||
      slashes > 2
    ) {
      lineFail(
        st,
        `face vertex "${text.slice(tokStart, i)}" is not an integer index (v, v/vt, v//vn or v/vt/vn)`,
      );
    }
    if (!neg && value > maxPositive) maxPositive = value;
    const resolved = resolveFaceIndex(st, value, neg, tokStart, i);
    if (n >= st.face.length) {
      const grown = new Uint32Array(st.face.length * 2);
      grown.set(st.face);
      st.face = grown;
    }
    st.face[n++] = resolved;
  }
  if (n < 3) lineFail(st, `face has ${n} vertices, expected at least 3`);
  // Legal but rare: a face naming a vertex defined further down. Check once all are read.
  if (maxPositive > st.vertexCount) {
    st.forwardRefs.push({
      lineNo: st.lineNo,
      line: text.slice(st.lineStart, st.lineEnd),
      maxIndex: maxPositive,
    });
  }
  appendFan(st, n);
}

/** A face token's index as a 0-based vertex index (negative ones count back from the latest). */
function resolveFaceIndex(
  st: ObjState,
  value: number,
  neg: boolean,
  tokStart: number,
  tokEnd: number,
): number {
  if (value === 0) lineFail(st, "face vertex index 0 is invalid (OBJ indices start at 1)");
  if (value > 0xffffffff) {
    lineFail(st, `face vertex index ${st.text.slice(tokStart, tokEnd)} is out of range`);
  }
  if (!neg) return value - 1;
  // Relative: -1 is the latest vertex read before this line.
  const resolved = st.vertexCount - value;
  if (resolved < 0) {
    lineFail(
      st,
      `relative face index -${value} reaches before the first vertex (only ${st.vertexCount} defined so far)`,
    );
  }
  return resolved;
}

/** Fan-triangulates the current face of `n` vertices as (0, k-1, k), RecastDemo's order. */
function appendFan(st: ObjState, n: number): void {
  const need = st.indexLen + 3 * (n - 2);
  if (need > st.indices.length) {
    let size = st.indices.length * 2;
    while (size < need) size *= 2;
    const grown = new Uint32Array(size);
    grown.set(st.indices);
    st.indices = grown;
  }
  const indices = st.indices;
  const face = st.face;
  let at = st.indexLen;
  const a = face[0]!;
  for (let k = 2; k < n; k++) {
    indices[at] = a;
    indices[at + 1] = face[k - 1]!;
    indices[at + 2] = face[k]!;
    at += 3;
  }
  st.indexLen = at;
}

/** Checks the forward references and that there is a face; trims the outputs. */
function finish(st: ObjState): TriangleMesh {
  const { vertexCount, indexLen, source } = st;
  for (const ref of st.forwardRefs) {
    if (ref.maxIndex > vertexCount) {
      fail(
        source,
        ref.lineNo,
        `face vertex index ${ref.maxIndex} is out of range (the file defines ${vertexCount} vertices)`,
        ref.line,
      );
    }
  }
  if (indexLen === 0) {
    throw new MeshwayError(
      "NO_TRIANGLES",
      `${source}: no faces found (${vertexCount} vertices, 0 triangles)`,
    );
  }
  return {
    positions: st.positions.slice(0, vertexCount * 3),
    indices: st.indices.slice(0, indexLen),
    vertexCount,
    triangleCount: indexLen / 3,
  };
}
