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
  let positions = new Float32Array(3 * 1024);
  let vertexCount = 0;
  let indices = new Uint32Array(3 * 2048);
  let indexLen = 0;
  // Per-face scratch of resolved 0-based vertex indices.
  let face = new Uint32Array(16);
  const forwardRefs: ForwardRef[] = [];

  const len = text.length;
  let lineNo = 0;
  let pos = 0;
  while (pos < len) {
    let lineEnd = text.indexOf("\n", pos);
    if (lineEnd < 0) lineEnd = len;
    const lineStart = pos;
    pos = lineEnd + 1;
    lineNo++;
    let end = lineEnd;
    if (end > lineStart && text.charCodeAt(end - 1) === CH_CR) end--;
    const lineTextEnd = end;

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

    if (c0 === CH_V) {
      // v x y z [w]; also x y z r g b (vertex colours, a common extension).
      if (vertexCount * 3 + 3 > positions.length) {
        const grown = new Float32Array(positions.length * 2);
        grown.set(positions);
        positions = grown;
      }
      let n = 0;
      const base = vertexCount * 3;
      while (true) {
        while (i < end && isBlank(text.charCodeAt(i))) i++;
        if (i >= end) break;
        const tokStart = i;
        while (i < end && !isBlank(text.charCodeAt(i))) i++;
        if (n < 3) {
          const value = isDecimalToken(text, tokStart, i) ? Number(text.slice(tokStart, i)) : NaN;
          if (!Number.isFinite(value)) {
            fail(
              source,
              lineNo,
              `vertex coordinate "${text.slice(tokStart, i)}" is not a finite number`,
              text.slice(lineStart, lineTextEnd),
            );
          }
          if (!Number.isFinite(Math.fround(value))) {
            fail(
              source,
              lineNo,
              `vertex coordinate ${text.slice(tokStart, i)} is outside float32 range`,
              text.slice(lineStart, lineTextEnd),
            );
          }
          positions[base + n] = value;
        } else if (!isDecimalToken(text, tokStart, i)) {
          fail(
            source,
            lineNo,
            `vertex component "${text.slice(tokStart, i)}" is not a number`,
            text.slice(lineStart, lineTextEnd),
          );
        }
        n++;
      }
      if (n !== 3 && n !== 4 && n !== 6) {
        fail(
          source,
          lineNo,
          `vertex has ${n} numbers, expected 3 (x y z), 4 (x y z w) or 6 (x y z r g b)`,
          text.slice(lineStart, lineTextEnd),
        );
      }
      vertexCount++;
      continue;
    }

    // f i1 i2 i3 ...; each token is v, v/vt, v//vn or v/vt/vn. Only v matters.
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
        fail(
          source,
          lineNo,
          `face vertex "${text.slice(tokStart, i)}" is not an integer index (v, v/vt, v//vn or v/vt/vn)`,
          text.slice(lineStart, lineTextEnd),
        );
      }
      if (value === 0) {
        fail(
          source,
          lineNo,
          "face vertex index 0 is invalid (OBJ indices start at 1)",
          text.slice(lineStart, lineTextEnd),
        );
      }
      if (value > 0xffffffff) {
        fail(
          source,
          lineNo,
          `face vertex index ${text.slice(tokStart, i)} is out of range`,
          text.slice(lineStart, lineTextEnd),
        );
      }
      let resolved: number;
      if (neg) {
        // Relative: -1 is the latest vertex read before this line.
        resolved = vertexCount - value;
        if (resolved < 0) {
          fail(
            source,
            lineNo,
            `relative face index -${value} reaches before the first vertex (only ${vertexCount} defined so far)`,
            text.slice(lineStart, lineTextEnd),
          );
        }
      } else {
        resolved = value - 1;
        if (value > maxPositive) maxPositive = value;
      }
      if (n >= face.length) {
        const grown = new Uint32Array(face.length * 2);
        grown.set(face);
        face = grown;
      }
      face[n++] = resolved;
    }
    if (n < 3) {
      fail(
        source,
        lineNo,
        `face has ${n} vertices, expected at least 3`,
        text.slice(lineStart, lineTextEnd),
      );
    }
    // Legal but rare: a face naming a vertex defined further down. Check once all are read.
    if (maxPositive > vertexCount) {
      forwardRefs.push({ lineNo, line: text.slice(lineStart, lineTextEnd), maxIndex: maxPositive });
    }
    const need = indexLen + 3 * (n - 2);
    if (need > indices.length) {
      let size = indices.length * 2;
      while (size < need) size *= 2;
      const grown = new Uint32Array(size);
      grown.set(indices);
      indices = grown;
    }
    const a = face[0]!;
    for (let k = 2; k < n; k++) {
      indices[indexLen] = a;
      indices[indexLen + 1] = face[k - 1]!;
      indices[indexLen + 2] = face[k]!;
      indexLen += 3;
    }
  }

  for (const ref of forwardRefs) {
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
    positions: positions.slice(0, vertexCount * 3),
    indices: indices.slice(0, indexLen),
    vertexCount,
    triangleCount: indexLen / 3,
  };
}
