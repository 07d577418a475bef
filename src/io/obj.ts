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

/** A token for a message: at most 40 characters, then "…" (a token may be a megabyte). */
function token(text: string, start: number, end: number): string {
  return end - start > 40 ? `${text.slice(start, start + 40)}…` : text.slice(start, end);
}

/**
 * A typed array twice as long holding `old`; an allocation the machine refuses becomes a
 * located MeshwayError naming the size, not an internal RangeError.
 */
function grown<T extends Float32Array | Uint32Array>(
  st: ObjState,
  old: T,
  size: number,
  what: string,
): T {
  let out: T;
  try {
    out = (old instanceof Float32Array ? new Float32Array(size) : new Uint32Array(size)) as T;
  } catch {
    throw new MeshwayError(
      "INVALID_INPUT",
      `${st.source}:${st.lineNo}: too large: cannot hold ${size} ${what} values (${size * 4} bytes) in memory`,
    );
  }
  out.set(old);
  return out;
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

/** 10^k for k = 0..15, each exact in a double. */
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * The number text[start, end) spells, as Number() reads it, NaN unless it is a decimal token.
 * Fast path (Clinger 1990): a plain [sign]digits[.digits] token of at most 15 digits is an
 * exact integer over an exact power of ten, and one IEEE division rounds that correctly, so
 * the result equals Number()'s without making a string. Anything else (exponents, longer
 * mantissas, malformed tokens) goes through Number().
 */
function parseDecimal(text: string, start: number, end: number): number {
  let i = start;
  let c = text.charCodeAt(i);
  const negative = c === CH_MINUS;
  if (negative || c === CH_PLUS) i++;
  let mantissa = 0;
  let digits = 0;
  let fractionDigits = 0;
  let dot = false;
  for (; i < end; i++) {
    c = text.charCodeAt(i);
    if (c >= CH_0 && c <= CH_9) {
      mantissa = mantissa * 10 + (c - CH_0);
      digits++;
      if (dot) fractionDigits++;
    } else if (c === CH_DOT && !dot) {
      dot = true;
    } else {
      digits = 16; // not the plain form: the general path decides
      break;
    }
  }
  if (digits === 0 || digits > 15) {
    return isDecimalToken(text, start, end) ? Number(text.slice(start, end)) : Number.NaN;
  }
  const value = mantissa / POW10[fractionDigits]!;
  return negative ? -value : value;
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
  const st = newState(source);
  // Classic Mac OS files end lines with CR alone: one "line" of the whole file otherwise.
  // The first line break decides, in text as in bytes (so chunking cannot change it).
  const lf = text.indexOf("\n");
  const cr = text.indexOf("\r");
  const crOnly = cr >= 0 && (lf < 0 || cr < lf) && cr + 1 < text.length && text[cr + 1] !== "\n";
  parseLines(st, text, crOnly ? "\r" : "\n");
  return finish(st);
}

/**
 * The line separator of OBJ bytes from their first line break: LF (a CR before it is part of
 * CRLF), or CR alone; null while no break has been seen or a CR ends the data so far.
 */
function separatorOf(data: Uint8Array, last: boolean): "\n" | "\r" | null {
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    if (c === 10) return "\n";
    if (c === 13) {
      if (i + 1 < data.length) return data[i + 1] === 10 ? "\n" : "\r";
      return last ? "\n" : null;
    }
  }
  return last ? "\n" : null;
}

/** Bytes of text decoded at a time; far below V8's longest string (about 512 M characters). */
const SLICE_BYTES = 64 * 1024 * 1024;
/** A longer line is no OBJ statement (and could not be one string). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Parses OBJ bytes (UTF-8), whole or as chunks read piece by piece, so a file of any size is
 * parsed without one string of all of it: the text is decoded in slices cut at line breaks
 * (a line break byte never occurs inside a UTF-8 sequence). Refuses binary data (NUL bytes)
 * and lines over 64 MiB; otherwise as {@link parseObj}.
 */
export function parseObjBytes(
  bytes: Uint8Array | Iterable<Uint8Array>,
  source = "input.obj",
): TriangleMesh {
  const st = newState(source);
  const decoder = new TextDecoder("utf-8", { fatal: false });
  let sep: "\n" | "\r" | null = null;
  let carry: Uint8Array = new Uint8Array(0);
  const feed = (data: Uint8Array, last: boolean): void => {
    if (data.indexOf(0) >= 0) {
      throw new MeshwayError(
        "INVALID_INPUT",
        `${source}: binary data where an OBJ text file was expected`,
      );
    }
    sep ??= separatorOf(data, last);
    if (sep === null) {
      // No line break yet: keep it all for the next chunk.
      if (data.length > MAX_LINE_BYTES) tooLong(st);
      carry = data;
      return;
    }
    const sepByte = sep === "\n" ? 10 : 13;
    carry = new Uint8Array(0);
    for (let at = 0; at < data.length; ) {
      let cut = data.length;
      if (!last || data.length - at > SLICE_BYTES) {
        // Up to and including the last line break within the next slice.
        const limit = Math.min(data.length, at + SLICE_BYTES);
        cut = data.lastIndexOf(sepByte, limit - 1) + 1;
        if (cut <= at) {
          // No line break in the slice: one long line, up to the next break.
          const next = data.indexOf(sepByte, limit);
          if (next < 0 && !last) {
            if (data.length - at > MAX_LINE_BYTES) tooLong(st);
            carry = data.subarray(at);
            return;
          }
          cut = next < 0 ? data.length : next + 1;
          if (cut - at > MAX_LINE_BYTES) tooLong(st);
        }
      }
      parseLines(st, decoder.decode(data.subarray(at, cut)), sep);
      at = cut;
    }
  };
  if (bytes instanceof Uint8Array) feed(bytes, true);
  else {
    let pending: Uint8Array | null = null;
    for (const chunk of bytes) {
      if (pending !== null) feed(join(carry, pending), false);
      pending = chunk;
    }
    feed(join(carry, pending ?? new Uint8Array(0)), true);
  }
  return finish(st);
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function tooLong(st: ObjState): never {
  throw new MeshwayError(
    "OBJ_PARSE",
    `${st.source}:${st.lineNo + 1}: line longer than ${MAX_LINE_BYTES} bytes; not an OBJ text file`,
  );
}

function newState(source: string): ObjState {
  return {
    text: "",
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
}

/**
 * Parses the lines of `text` (ending with `sep`; with "\n", a CR before it is dropped) into
 * `st`. Line numbers continue from earlier calls. A text that ends with its separator has no
 * extra empty line after it, so slices cut after a separator count lines as the whole would.
 */
function parseLines(st: ObjState, text: string, sep: "\n" | "\r"): void {
  st.text = text;
  const len = text.length;
  let pos = 0;
  while (pos < len) {
    let lineEnd = text.indexOf(sep, pos);
    if (lineEnd < 0) lineEnd = len;
    const lineStart = pos;
    pos = lineEnd + 1;
    st.lineNo++;
    let end = lineEnd;
    if (sep === "\n" && end > lineStart && text.charCodeAt(end - 1) === CH_CR) end--;
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
}

/** The parser's growing outputs and the line being read (for messages). */
interface ObjState {
  /** The slice of text being parsed. */
  text: string;
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
  // quoteLine shows at most 80 characters: never copy a megabyte line to quote it.
  const end = Math.min(st.lineEnd, st.lineStart + 81);
  fail(st.source, st.lineNo, what, st.text.slice(st.lineStart, end));
}

/** `v x y z [w]`; also `x y z r g b` (vertex colours, a common extension). */
function readVertex(st: ObjState, from: number, end: number): void {
  const text = st.text;
  if (st.vertexCount * 3 + 3 > st.positions.length) {
    st.positions = grown(st, st.positions, st.positions.length * 2, "vertex coordinate");
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
      const value = parseDecimal(text, tokStart, i);
      if (!Number.isFinite(value)) {
        lineFail(st, `vertex coordinate "${token(text, tokStart, i)}" is not a finite number`);
      }
      if (!Number.isFinite(Math.fround(value))) {
        lineFail(st, `vertex coordinate ${token(text, tokStart, i)} is outside float32 range`);
      }
      positions[base + n] = value;
    } else if (!isDecimalToken(text, tokStart, i)) {
      lineFail(st, `vertex component "${token(text, tokStart, i)}" is not a number`);
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
        `face vertex "${token(text, tokStart, i)}" is not an integer index (v, v/vt, v//vn or v/vt/vn)`,
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
      line: text.slice(st.lineStart, Math.min(st.lineEnd, st.lineStart + 81)),
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
    lineFail(st, `face vertex index ${token(st.text, tokStart, tokEnd)} is out of range`);
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
    st.indices = grown(st, st.indices, size, "triangle index");
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
