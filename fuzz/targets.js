// The fuzz targets, one list used twice: bounded fast-check runs inside `npm test`
// (test/property/fuzz-*.test.ts) and deep runs by `npm run fuzz -- <count>` (scripts/fuzz.mjs).
// Each target is { name, arbitrary, check }: `check(value)` runs the code under test on one
// generated case and throws a FuzzViolation when the case ends in anything but a valid result
// or a MeshwayError with a known code and a message. Runs on dist/ (`npm run build` first).

import { crc32 as zlibCrc32 } from "node:zlib";
import fc from "fast-check";

/** CRC-32 of bytes[start, end) — the checksum the file formats use (zlib's). */
const crc32 = (bytes, start, end) => zlibCrc32(bytes.subarray(start, end));

import {
  buildNavMesh,
  createTileCache,
  deserializeNavMesh,
  encodePolyRef,
  importDetourNavMesh,
  MeshwayError,
  mulberry32,
  NavMeshQuery,
  parseObj,
  parseObjBytes,
  polyOfRef,
  QueryFilter,
  StraightPath,
  saltOfRef,
  serializeNavMesh,
  TileCache,
  tileOfRef,
  validateNavMesh,
} from "../dist/index.js";
import { parseGlb, parseGltf } from "../dist/node.js";
import { FIXTURE_CONFIG, fixtures, freshNavMesh, levelObjText } from "./fixtures.js";
import { applyEdits, editsArb, INTERESTING_U32, NASTY_TOKENS } from "./mutate.js";

/** A case broke the contract: another exception type, an invalid result, an unknown code. */
export class FuzzViolation extends Error {
  constructor(message, cause) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "FuzzViolation";
  }
}

const STATUSES = new Set(["complete", "partial", "noStart", "noEnd", "outOfNodes", "invalidRef"]);

function describe(e) {
  if (e instanceof Error) return `${e.name}: ${e.message}\n${e.stack ?? ""}`;
  return `non-Error thrown: ${String(e)}`;
}

/** The last accepted error's message (for tuning the arbitraries: what stops cases early). */
export const lastAccepted = { message: "" };

/**
 * Accepts `e` when it is a MeshwayError with one of `codes` and a non-empty message naming
 * its subject; otherwise throws a FuzzViolation carrying it.
 */
function acceptError(e, codes, where) {
  if (e instanceof FuzzViolation) throw e;
  if (!(e instanceof MeshwayError)) {
    throw new FuzzViolation(`${where}: threw a non-MeshwayError: ${describe(e)}`, e);
  }
  if (!codes.includes(e.code)) {
    throw new FuzzViolation(`${where}: MeshwayError with unexpected code ${e.code}: ${e.message}`);
  }
  if (typeof e.message !== "string" || e.message.trim().length < 8) {
    throw new FuzzViolation(`${where}: MeshwayError ${e.code} without a useful message`);
  }
  // A library error wrapped by the glTF loader's last line of defence is still a bug.
  if (/cannot be read as glTF/.test(e.message)) {
    throw new FuzzViolation(`${where}: an internal error reached the glTF guard: ${e.message}`);
  }
  lastAccepted.message = e.message;
  return e.code;
}

/** `arb` one time in `n`, else null. */
function rarely(arb, n) {
  return fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });
}

function violated(where, what) {
  throw new FuzzViolation(`${where}: ${what}`);
}

function allFinite(a, n = a.length) {
  for (let i = 0; i < n; i++) if (!Number.isFinite(a[i])) return false;
  return true;
}

/** A parsed or loaded triangle mesh is well-formed: finite positions, indices in range. */
function checkTriangleMesh(mesh, where) {
  const { positions, indices, vertexCount, triangleCount } = mesh;
  if (!(positions instanceof Float32Array) || !(indices instanceof Uint32Array)) {
    violated(where, "mesh arrays are not Float32Array / Uint32Array");
  }
  if (positions.length !== vertexCount * 3 || indices.length !== triangleCount * 3) {
    violated(where, "mesh counts disagree with the array lengths");
  }
  if (triangleCount === 0) violated(where, "returned a mesh without triangles");
  if (!allFinite(positions)) violated(where, "non-finite position in the result");
  for (let i = 0; i < indices.length; i++) {
    if (indices[i] >= vertexCount) violated(where, `index ${indices[i]} >= ${vertexCount}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Queries on a navmesh: shared by the query target and the loaders (a loaded file must never
// make a query read out of range, loop or throw anything but MeshwayError).

function checkStatus(status, where) {
  if (!STATUSES.has(status)) violated(where, `unknown status ${JSON.stringify(status)}`);
}

/** Runs a fixed battery of queries with points drawn from `rng` inside the mesh's bounds. */
export function exerciseNavMesh(navMesh, seed, where) {
  const v = validateNavMesh(navMesh, { maxProblems: 5 });
  if (typeof v.ok !== "boolean") violated(where, "validateNavMesh returned no verdict");
  const rng = mulberry32(seed);
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const t of navMesh.tiles) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], t.bmin[k]);
      hi[k] = Math.max(hi[k], t.bmax[k]);
    }
  }
  if (!allFinite(lo) || !allFinite(hi)) return;
  const point = () => lo.map((l, k) => l + (hi[k] - l) * rng());
  const q = new NavMeshQuery(navMesh, { maxNodes: 64 });
  const ext = [2, 4, 2];
  const run = (what, fn) => {
    try {
      fn();
    } catch (e) {
      acceptError(e, ["INVALID_ARGUMENT"], `${where}: ${what}`);
    }
  };
  for (let i = 0; i < 4; i++) {
    const a = point();
    const b = point();
    run("computePath", () => {
      const r = q.computePath(a, b, { halfExtents: ext });
      checkStatus(r.status, `${where}: computePath`);
      for (const p of r.points) if (!allFinite(p)) violated(where, "computePath: non-finite point");
    });
    const ref = q.findNearestPoly(a, ext);
    if (ref === 0) continue;
    const ref2 = q.findNearestPoly(b, ext);
    run("raycast", () => {
      const h = q.raycast(ref, a, b);
      if (Number.isNaN(h.t)) violated(where, "raycast: t is NaN");
    });
    run("moveAlongSurface", () => {
      const m = q.moveAlongSurface(ref, a, b);
      if (!allFinite(m.resultPos)) violated(where, "moveAlongSurface: non-finite result");
    });
    run("findDistanceToWall", () => q.findDistanceToWall(ref, a, 5));
    run("findPolysAroundCircle", () => q.findPolysAroundCircle(ref, a, 3));
    run("findRandomPointAroundCircle", () =>
      q.findRandomPointAroundCircle(ref, a, 3, q.defaultFilter, rng),
    );
    run("findRandomPoint", () => q.findRandomPoint(q.defaultFilter, rng));
    if (ref2 !== 0) {
      run("findPath", () => checkStatus(q.findPath(ref, ref2, a, b).status, where));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// OBJ

const OBJ_CODES = ["OBJ_PARSE", "NO_TRIANGLES"];

const objLineArb = fc.oneof(
  fc
    .array(fc.oneof(fc.constantFrom(...NASTY_TOKENS), fc.double().map(String)), { maxLength: 7 })
    .map((t) => `v ${t.join(" ")}`),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(...NASTY_TOKENS),
        fc.integer({ min: -12, max: 12 }).map(String),
        fc.tuple(fc.integer({ min: 1, max: 9 }), fc.nat(9)).map(([a, b]) => `${a}/${b}/${b}`),
      ),
      { maxLength: 8 },
    )
    .map((t) => `f ${t.join(" ")}`),
  fc.constantFrom("# comment", "o thing", "g group", "vt 0 1", "vn 0 1 0", "usemtl x", "s off", ""),
  fc.string({ maxLength: 40 }),
);
const EOL = ["\n", "\r\n", "\r", "\n\n"];

/** Random bytes, lines from an OBJ grammar with nasty tokens, or edits of the fixture's text. */
const objArb = fc.oneof(
  fc.record({ kind: fc.constant("bytes"), bytes: fc.uint8Array({ maxLength: 600 }) }),
  fc.record({
    kind: fc.constant("lines"),
    lines: fc.array(fc.tuple(objLineArb, fc.nat(EOL.length - 1)), { maxLength: 30 }),
  }),
  fc.record({
    kind: fc.constant("mutated"),
    edits: fc.array(
      fc.record({
        op: fc.constantFrom("swap", "replace", "dropLine", "dupLine", "crlf", "longLine"),
        a: fc.nat(),
        b: fc.nat(),
        token: fc.constantFrom(...NASTY_TOKENS),
      }),
      { minLength: 1, maxLength: 5 },
    ),
  }),
);

function mutateObjText(text, edits) {
  const lines = text.split("\n");
  for (const e of edits) {
    const li = e.a % lines.length;
    const toks = lines[li].split(" ");
    switch (e.op) {
      case "swap": {
        const lj = e.b % lines.length;
        const other = lines[lj].split(" ");
        const i = e.a % toks.length;
        const j = e.b % other.length;
        [toks[i], other[j]] = [other[j], toks[i]];
        lines[li] = toks.join(" ");
        if (lj !== li) lines[lj] = other.join(" ");
        break;
      }
      case "replace":
        toks[e.b % toks.length] = e.token;
        lines[li] = toks.join(" ");
        break;
      case "dropLine":
        lines.splice(li, 1);
        if (lines.length === 0) lines.push("");
        break;
      case "dupLine":
        lines.splice(li, 0, lines[e.b % lines.length]);
        break;
      case "crlf":
        lines[li] += "\r";
        break;
      case "longLine":
        // A face of thousands of corners or a vertex line with a 20 000-digit number.
        lines[li] =
          e.b % 2 === 0
            ? `f ${Array.from({ length: 4000 }, (_, k) => (k % 5) + 1).join(" ")}`
            : `v ${"9".repeat(20000)} 0 0`;
        break;
    }
  }
  return lines.join("\n");
}

/** What a parse gives, comparable: the mesh's arrays or the error's code and message. */
function objOutcome(run) {
  try {
    const m = run();
    // A fingerprint of both arrays' bytes (FNV-1a), cheaper than comparing them as text.
    let h = 0x811c9dc5;
    for (const a of [m.positions, m.indices]) {
      const b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 0x01000193);
    }
    return `mesh ${m.positions.length} ${m.indices.length} ${h >>> 0}`;
  } catch (e) {
    return `${e.code}: ${e.message}`;
  }
}

/**
 * parseObjBytes reads large files in slices cut at line breaks: chunks cut anywhere (inside a
 * line, between CR and LF) must parse exactly as the whole bytes, and the whole bytes as the
 * text (when the text survives UTF-8 and holds no NUL, which bytes refuse as binary).
 */
function checkObjChunking(text) {
  const bytes = new TextEncoder().encode(text);
  // Tiny chunks for short texts; for the fixture's edits, cuts a few kilobytes apart.
  const step = 1 + (bytes.length % (bytes.length < 4000 ? 13 : 4093));
  const chunks = [];
  for (let at = 0; at < bytes.length; at += step) chunks.push(bytes.subarray(at, at + step));
  const whole = objOutcome(() => parseObjBytes(bytes, "fuzz.obj"));
  const chunked = objOutcome(() => parseObjBytes(chunks, "fuzz.obj"));
  if (whole !== chunked) {
    violated(
      "parseObjBytes",
      `chunks of ${step} bytes: ${chunked.slice(0, 200)} vs whole: ${whole.slice(0, 200)}`,
    );
  }
  if (!text.includes("\u0000") && new TextDecoder().decode(bytes) === text) {
    const fromText = objOutcome(() => parseObj(text, "fuzz.obj"));
    if (fromText !== whole) {
      violated("parseObjBytes", `bytes: ${whole.slice(0, 200)} vs text: ${fromText.slice(0, 200)}`);
    }
  }
}

export const objTarget = {
  name: "obj",
  description: "parseObj on random bytes, grammar-made lines and edits of a valid file",
  arbitrary: objArb,
  async check(c) {
    let text;
    if (c.kind === "bytes") text = new TextDecoder("utf-8").decode(c.bytes);
    else if (c.kind === "lines") text = c.lines.map(([l, e]) => l + EOL[e]).join("");
    else text = mutateObjText((await fixtures()).objText, c.edits);
    checkObjChunking(text);
    let mesh;
    try {
      mesh = parseObj(text, "fuzz.obj");
    } catch (e) {
      const code = acceptError(e, OBJ_CODES, "parseObj");
      if (code === "OBJ_PARSE" && !/^fuzz\.obj:\d+: /.test(e.message)) {
        violated("parseObj", `OBJ_PARSE message does not name the line: ${e.message}`);
      }
      return code;
    }
    checkTriangleMesh(mesh, "parseObj");
    return "parsed";
  },
};

// ---------------------------------------------------------------------------------------------
// glTF / GLB

const GLTF_CODES = ["INVALID_INPUT", "NO_TRIANGLES"];

/** Values that break glTF JSON fields: wrong types, out-of-range numbers, odd strides. */
const JSON_JUNK = [
  null,
  true,
  -1,
  0,
  1,
  2,
  3,
  4,
  5,
  6,
  7,
  1.5,
  255,
  256,
  4096,
  5120,
  5121,
  5122,
  5123,
  5125,
  5126,
  5127,
  0x7fffffff,
  0xffffffff,
  2 ** 53,
  1e308,
  -1e308,
  "",
  "x",
  "VEC2",
  "VEC3",
  "SCALAR",
  "MAT4",
  "data:,",
  "data:application/octet-stream;base64,AAAA",
  "data:application/octet-stream;base64,@@@",
  "data:application/octet-stream,%ZZ",
  "data:;base64",
  "http://example.com/x.bin",
  "missing.bin",
  "../../../../etc/passwd",
  "/dev/zero",
  [],
  [0],
  [0, 0, 0],
  {},
  { POSITION: 0 },
];

/** Every path to a value in a JSON tree (arrays and objects included). */
function jsonPaths(value, path = [], out = []) {
  if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) {
      const p = [...path, Array.isArray(value) ? Number(key) : key];
      out.push(p);
      jsonPaths(value[key], p, out);
    }
  }
  return out;
}

function setPath(root, path, value) {
  let o = root;
  for (let i = 0; i < path.length - 1; i++) o = o[path[i]];
  if (value === undefined) {
    if (Array.isArray(o)) o.splice(path[path.length - 1], 1);
    else delete o[path[path.length - 1]];
  } else {
    o[path[path.length - 1]] = value;
  }
}

/** Splits a well-formed GLB into its JSON object and BIN chunk. */
function splitGlb(glb) {
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const binAt = 20 + jsonLength;
  const bin = glb.subarray(binAt + 8, binAt + 8 + dv.getUint32(binAt, true));
  return { json, bin };
}

/** Packs JSON and BIN into a GLB with consistent lengths (both chunks padded to 4). */
export function packGlb(json, bin) {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jl = Math.ceil(text.length / 4) * 4;
  const bl = bin ? Math.ceil(bin.length / 4) * 4 : 0;
  const total = 12 + 8 + jl + (bin ? 8 + bl : 0);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, total, true);
  dv.setUint32(12, jl, true);
  dv.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jl);
  out.set(text, 20);
  if (bin) {
    dv.setUint32(20 + jl, bl, true);
    dv.setUint32(24 + jl, 0x004e4942, true);
    out.set(bin, 28 + jl);
  }
  return out;
}

const jsonEditArb = fc.record({
  path: fc.nat(),
  // Most edits go to the geometry's description: accessors, buffer views, buffers.
  focus: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, fc.constant(false)),
  value: fc.oneof(
    fc.constantFrom(...JSON_JUNK),
    fc.constant(undefined),
    fc.integer(),
    // Off by a little from the current number (a count one too large, an offset by 4).
    fc.constantFrom(-4, -1, 1, 2, 4, 12).map((delta) => ({ delta })),
  ),
});
const GEOMETRY_PATH = /^(accessors|bufferViews|buffers|meshes)$/;

/** GLB container fields: total length (8), JSON chunk length (12), type (16), BIN length. */
const glbFieldArb = fc.record({
  field: fc.constantFrom("length", "jsonLength", "jsonType", "binLength", "binType", "version"),
  value: fc.oneof(fc.constantFrom(...INTERESTING_U32), fc.integer({ min: -8, max: 8 })),
});

const gltfArb = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("glbBytes"), edits: editsArb(3) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("glbFields"),
      fields: fc.array(glbFieldArb, { minLength: 1, maxLength: 2 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("glbJson"),
      edits: fc.array(jsonEditArb, { minLength: 1, maxLength: 4 }),
      dropBin: fc.boolean(),
      byteEdits: rarely(editsArb(2), 5),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("dataUri"),
      edits: fc.array(jsonEditArb, { minLength: 0, maxLength: 3 }),
      textEdits: rarely(editsArb(2), 5),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("bytes"), bytes: fc.uint8Array({ maxLength: 300 }) }),
  },
  {
    // Issue 19 B6: sizes from the JSON alone (a zero-filled accessor of 50 M vertices in 232
    // bytes, one primitive instanced by thousands of nodes) must be refused before allocating.
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("amplified"),
      count: fc.constantFrom(3, 999, 1e6, 5e7, 2 ** 31, 2 ** 52),
      nodes: fc.integer({ min: 1, max: 4000 }),
    }),
  },
);

/** A GLB of one POSITION accessor without a bufferView (all zeros), instanced by `nodes`. */
function amplifiedGlb(count, nodes) {
  return packGlb(
    {
      asset: { version: "2.0" },
      scenes: [{ nodes: Array.from({ length: nodes }, (_, i) => i) }],
      nodes: Array.from({ length: nodes }, (_, i) => ({ mesh: 0, translation: [i, 0, 0] })),
      meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
      accessors: [{ componentType: 5126, count, type: "VEC3" }],
    },
    null,
  );
}

function getPath(root, path) {
  let o = root;
  for (const k of path) o = o?.[k];
  return o;
}

function applyJsonEdits(json, edits) {
  for (const e of edits) {
    let paths = jsonPaths(json);
    if (e.focus) {
      const focused = paths.filter((p) => GEOMETRY_PATH.test(String(p[0])) && p.length > 2);
      if (focused.length > 0) paths = focused;
    }
    if (paths.length === 0) break;
    const path = paths[e.path % paths.length];
    let value = e.value;
    if (value !== null && typeof value === "object" && "delta" in value) {
      const old = getPath(json, path);
      value = typeof old === "number" ? old + value.delta : value.delta;
    }
    setPath(json, path, value);
  }
}

export const gltfTarget = {
  name: "gltf",
  description:
    "parseGlb / parseGltf on byte edits of a GLB (chunk lengths, headers), JSON field edits (accessors, bufferViews, buffers, data URIs), data-URI .gltf and random bytes",
  arbitrary: gltfArb,
  async check(c) {
    const f = await fixtures();
    let run;
    if (c.kind === "glbBytes") {
      const bytes = applyEdits(f.glb, c.edits);
      run = () => parseGlb(bytes, "fuzz.glb");
    } else if (c.kind === "glbFields") {
      const bytes = f.glb.slice();
      const dv = new DataView(bytes.buffer);
      const jl = dv.getUint32(12, true);
      const at = {
        version: 4,
        length: 8,
        jsonLength: 12,
        jsonType: 16,
        binLength: 20 + jl,
        binType: 24 + jl,
      };
      for (const { field, value } of c.fields) {
        // Small values are offsets from the current one (off by a few); others replace it.
        const old = dv.getUint32(at[field], true);
        const v = value >= -8 && value <= 8 ? old + value : value;
        dv.setUint32(at[field], v >>> 0, true);
      }
      run = () => parseGlb(bytes, "fuzz.glb");
    } else if (c.kind === "glbJson") {
      const { json, bin } = splitGlb(f.glb);
      applyJsonEdits(json, c.edits);
      let bytes = packGlb(json, c.dropBin ? null : bin);
      if (c.byteEdits) bytes = applyEdits(bytes, c.byteEdits);
      run = () => parseGlb(bytes, "fuzz.glb");
    } else if (c.kind === "dataUri") {
      const json = JSON.parse(new TextDecoder().decode(f.gltfDataUri));
      applyJsonEdits(json, c.edits);
      let bytes = new TextEncoder().encode(JSON.stringify(json));
      if (c.textEdits) bytes = applyEdits(bytes, c.textEdits);
      run = () => parseGltf(bytes, "fuzz.gltf");
    } else if (c.kind === "amplified") {
      const bytes = amplifiedGlb(c.count, c.nodes);
      run = () => parseGlb(bytes, "fuzz.glb", { maxTriangles: 100_000 });
    } else {
      run = () => parseGltf(c.bytes, "fuzz.gltf");
    }
    let result;
    try {
      result = await run();
    } catch (e) {
      return acceptError(e, GLTF_CODES, "parseGlb/parseGltf");
    }
    checkTriangleMesh(result.mesh, "parseGlb/parseGltf");
    if (!Array.isArray(result.warnings)) violated("parseGlb/parseGltf", "warnings is not an array");
    return "loaded";
  },
};

// ---------------------------------------------------------------------------------------------
// .navmesh files and Detour exports

/**
 * Rewrites a `.navmesh` image's payload and header checksums so edits get past the CRCs and
 * reach the structural checks (a damaged file is caught by the CRC; this tests a file written
 * wrong, or crafted).
 */
export function fixNavMeshChecksums(bytes) {
  if (bytes.length < 128) return bytes;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  dv.setUint32(120, crc32(bytes, 128, bytes.length), true);
  dv.setUint32(124, crc32(bytes, 0, 124), true);
  return bytes;
}

/** Header field edits of a `.navmesh`: counts, payload length, nvp, set to edge values. */
const navHeaderEditArb = fc.record({
  field: fc.constantFrom(8, 12, 16, 20, 24, 28),
  value: fc.oneof(fc.constantFrom(...INTERESTING_U32), fc.nat()),
});

/**
 * Navmesh parameter edits (float64 at byte 32 + 8k: origin xyz, tile width/depth, cell sizes,
 * agent): the values issue 19's crafted files used — a tile width of 0 or 1e-300, negative
 * sizes, an origin at 1e17 (validateNavMesh's bucket loop could not advance past 2^53).
 */
const navParamEditArb = fc.record({
  k: fc.integer({ min: 0, max: 9 }),
  value: fc.constantFrom(0, -0, -1, -0.5, 1e-300, 4e16, 1e17, -3e38, 3e38),
});

const navmeshArb = fc.record({
  seed: fc.constantFrom("solo", "tiled"),
  edits: fc.oneof(editsArb(3), fc.constant([])),
  header: fc.array(navHeaderEditArb, { maxLength: 2 }),
  params: fc.array(navParamEditArb, { maxLength: 2 }),
  fixCrc: fc.boolean(),
  query: fc.nat(),
});

const navmeshTiledBytes = new WeakMap();

async function navmeshSeed(kind) {
  const f = await fixtures();
  if (kind === "solo") return f.navmeshFile;
  let b = navmeshTiledBytes.get(f);
  if (!b) {
    b = serializeNavMesh(importDetourNavMesh(f.detourFile, "fixture.bin"), null);
    navmeshTiledBytes.set(f, b);
  }
  return b;
}

export const navmeshTarget = {
  name: "navmesh",
  description:
    "deserializeNavMesh on bit flips, truncations, insertions, u32 edits, header count and navmesh parameter edits (with and without repaired checksums); every loaded mesh is then queried",
  arbitrary: navmeshArb,
  async check(c) {
    const bytes = applyEdits(await navmeshSeed(c.seed), c.edits);
    if (bytes.length >= 32) {
      const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (const h of c.header) dv.setUint32(h.field, h.value >>> 0, true);
      if (bytes.length >= 112) for (const p of c.params) dv.setFloat64(32 + 8 * p.k, p.value, true);
    }
    if (c.fixCrc) fixNavMeshChecksums(bytes);
    let loaded;
    try {
      loaded = deserializeNavMesh(bytes, "fuzz.navmesh");
    } catch (e) {
      const code = acceptError(e, ["INVALID_INPUT"], "deserializeNavMesh");
      if (!/ at byte \d+$/.test(e.message)) {
        violated("deserializeNavMesh", `message does not name the byte: ${e.message}`);
      }
      return /checksum/.test(e.message) ? `${code} (checksum)` : code;
    }
    exerciseNavMesh(loaded.navMesh, c.query, "loaded .navmesh");
    return "loaded and queried";
  },
};

export const detourTarget = {
  name: "detour",
  description:
    "importDetourNavMesh on edits of a tiled recast-navigation export with an off-mesh connection; every imported mesh is then queried",
  arbitrary: fc.record({ edits: editsArb(4), query: fc.nat() }),
  async check(c) {
    const bytes = applyEdits((await fixtures()).detourFile, c.edits);
    let navMesh;
    try {
      navMesh = importDetourNavMesh(bytes, "fuzz.bin");
    } catch (e) {
      return acceptError(e, ["INVALID_INPUT"], "importDetourNavMesh");
    }
    exerciseNavMesh(navMesh, c.query, "imported Detour navmesh");
    return "imported and queried";
  },
};

// ---------------------------------------------------------------------------------------------
// Tile cache files (TileCache.serialize / deserialize)

let tileCacheSeedBytes;

/** A small tile cache with history: obstacles, a volume, an off-mesh link, a pending tile. */
function tileCacheSeed() {
  if (!tileCacheSeedBytes) {
    const mesh = parseObj(levelObjText(), "fixture.obj");
    const { navMesh, cache } = createTileCache(
      mesh,
      { ...FIXTURE_CONFIG, tileSize: 24 },
      {
        areaVolumes: [{ kind: "box", min: [1, -1, 1], max: [4, 1, 4], area: 7 }],
      },
    );
    cache.addObstacle({ kind: "cylinder", center: [5, -0.5, 5], radius: 1, height: 3 });
    cache.addObstacle({ kind: "prism", points: [15, 15, 17, 15, 16, 17], minY: -1, maxY: 2 });
    cache.flush();
    navMesh.addOffMeshConnection({
      start: [1, 0, 18],
      end: [4, 3, 16],
      radius: 0.5,
      bidirectional: true,
      area: 63,
      flags: 1,
    });
    cache.addObstacle({ kind: "box", min: [12, -1, 3], max: [13, 2, 6] });
    tileCacheSeedBytes = cache.serialize();
  }
  return tileCacheSeedBytes;
}

/** Rewrites a tile cache image's payload and header checksums (see fixNavMeshChecksums). */
function fixTileCacheChecksums(bytes) {
  if (bytes.length < 32) return bytes;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  dv.setUint32(16, crc32(bytes, 32, bytes.length), true);
  dv.setUint32(28, crc32(bytes, 0, 28), true);
  return bytes;
}

/**
 * A fuzzed tile cache image loaded, or its refusal checked (INVALID_INPUT naming the byte):
 * { cache } or { refused: code, message }.
 */
function loadFuzzedTileCache(bytes) {
  try {
    return { cache: TileCache.deserialize(bytes, "fuzz.tilecache") };
  } catch (e) {
    const code = acceptError(e, ["INVALID_INPUT"], "TileCache.deserialize");
    if (!/ at byte \d+$/.test(e.message)) {
      violated("TileCache.deserialize", `message does not name the byte: ${e.message}`);
    }
    return { refused: code, message: e.message };
  }
}

export const tileCacheTarget = {
  name: "tilecache",
  description:
    "TileCache.deserialize on edits of a saved tile cache (with and without repaired checksums); every loaded cache is queried, takes an obstacle, rebuilds and saves again",
  arbitrary: fc.record({ edits: editsArb(3), fixCrc: fc.boolean(), query: fc.nat() }),
  async check(c) {
    const bytes = applyEdits(tileCacheSeed(), c.edits);
    if (c.fixCrc) fixTileCacheChecksums(bytes);
    const { cache, refused, message } = loadFuzzedTileCache(bytes);
    if (!cache) return /checksum/.test(message) ? `${refused} (checksum)` : refused;
    exerciseNavMesh(cache.navMesh, c.query, "loaded tile cache");
    try {
      cache.addObstacle({ kind: "cylinder", center: [10, -0.5, 10], radius: 2, height: 3 });
      cache.flush();
      for (const id of cache.obstacleIds()) cache.removeObstacle(id);
      cache.flush();
      cache.serialize();
    } catch (e) {
      acceptError(e, ["INVALID_ARGUMENT"], "loaded tile cache: obstacle, flush, serialize");
    }
    exerciseNavMesh(cache.navMesh, c.query + 1, "rebuilt tile cache");
    return "loaded, rebuilt and queried";
  },
};

// Tile cache files, format 3's layers: several heightfield layers per tile coordinate

let layeredSeedBytes;

/** Two storeys over each other (a mezzanine above the ground, a ramp up): 2 layers per tile. */
function twoStoreyMesh() {
  const p = [];
  const ix = [];
  const quad = (a, b, c, d) => {
    const o = p.length / 3;
    p.push(...a, ...b, ...c, ...d);
    ix.push(o, o + 2, o + 1, o, o + 3, o + 2);
  };
  quad([0, 0, 0], [20, 0, 0], [20, 0, 20], [0, 0, 20]);
  quad([8, 2.4, 2], [18, 2.4, 2], [18, 2.4, 18], [8, 2.4, 18]);
  quad([2, 0.05, 8], [8, 2.4, 8], [8, 2.4, 12], [2, 0.05, 12]);
  return { positions: new Float32Array(p), indices: new Uint32Array(ix) };
}

/** A layered cache with an obstacle on the upper storey (restore tiles kept) and one pending. */
function layeredSeed() {
  if (!layeredSeedBytes) {
    const { cache } = createTileCache(twoStoreyMesh(), { tileSize: 24 });
    cache.addObstacle({ kind: "cylinder", center: [13, 2.4, 10], radius: 1, height: 2 });
    cache.flush();
    cache.addObstacle({ kind: "box", min: [3, -0.5, 3], max: [5, 1, 5] });
    layeredSeedBytes = cache.serialize();
  }
  return layeredSeedBytes;
}

/** The META block's JSON and where the blocks after it start (META comes first, raw). */
function splitMeta(bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = dv.getUint32(32, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(48, 48 + len)));
  return { json, rest: bytes.subarray(48 + Math.ceil(len / 8) * 8) };
}

/** A tile cache image with META replaced by `json`, checksums repaired. */
function joinMeta(bytes, json, rest) {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const padded = Math.ceil(text.length / 8) * 8;
  const out = new Uint8Array(48 + padded + rest.length);
  out.set(bytes.subarray(0, 32), 0);
  const dv = new DataView(out.buffer);
  dv.setUint32(32, text.length, true);
  dv.setUint32(36, 0x4154454d, true);
  out.set(text, 48);
  out.set(rest, 48 + padded);
  const payload = out.length - 32;
  dv.setUint32(8, payload % 2 ** 32, true);
  dv.setUint32(12, Math.floor(payload / 2 ** 32), true);
  return fixTileCacheChecksums(out);
}

/**
 * Edits of the per-tile layer records: [tile, bits, [[liveIndex, layerBits], …]]. Most are
 * gentle — they keep the file loadable (a flag the file's blocks do not contradict toggled,
 * two layers' navmesh tiles swapped) so the cases reach rebuilds and saves; the rest break a
 * record outright and must be refused.
 */
const gentleLayerEditArb = fc.oneof(
  fc.record({
    op: fc.constant("toggleLayerBit"),
    tile: fc.nat(),
    layer: fc.nat(),
    // obstacle-free, obstacle-free known
    value: fc.constantFrom(8, 16, 24),
  }),
  fc.record({ op: fc.constant("toggleTileBit"), tile: fc.nat(), value: fc.constant(32) }),
  fc.record({ op: fc.constant("swapLive"), tile: fc.nat(), layer: fc.nat(), other: fc.nat() }),
);

const layerEditArb = fc.oneof(
  { weight: 6, arbitrary: gentleLayerEditArb },
  fc.record({
    op: fc.constant("liveIndex"),
    tile: fc.nat(),
    layer: fc.nat(),
    value: fc.integer({ min: -2, max: 1e6 }),
  }),
  fc.record({
    op: fc.constant("layerBits"),
    tile: fc.nat(),
    layer: fc.nat(),
    value: fc.integer({ min: -1, max: 255 }),
  }),
  fc.record({
    op: fc.constant("tileBits"),
    tile: fc.nat(),
    value: fc.integer({ min: -1, max: 255 }),
  }),
  fc.record({ op: fc.constant("dropLayer"), tile: fc.nat(), layer: fc.nat() }),
  fc.record({ op: fc.constant("dupLayer"), tile: fc.nat(), layer: fc.nat() }),
  fc.record({ op: fc.constant("swapLayers"), tile: fc.nat(), other: fc.nat() }),
  fc.record({
    op: fc.constant("tileIndex"),
    tile: fc.nat(),
    value: fc.integer({ min: -1, max: 1000 }),
  }),
  fc.record({
    op: fc.constant("junk"),
    tile: fc.nat(),
    value: fc.constantFrom(null, "x", 1.5, [], {}, [1]),
  }),
);

function applyLayerEdit(json, e) {
  const tiles = json.tiles;
  if (!Array.isArray(tiles) || tiles.length === 0) return;
  const t = tiles[e.tile % tiles.length];
  // An earlier junk edit may have replaced the record or its layer list.
  if (!Array.isArray(t)) return;
  const layers = Array.isArray(t[2]) ? t[2] : [];
  const l = layers.length > 0 ? e.layer % layers.length : 0;
  switch (e.op) {
    case "liveIndex":
      if (Array.isArray(layers[l])) layers[l][0] = e.value;
      break;
    case "layerBits":
      if (Array.isArray(layers[l])) layers[l][1] = e.value;
      break;
    case "tileBits":
      t[1] = e.value;
      break;
    case "dropLayer":
      layers.splice(l, 1);
      break;
    case "dupLayer":
      if (Array.isArray(layers[l])) layers.splice(l, 0, [...layers[l]]);
      break;
    case "swapLayers": {
      const u = tiles[e.other % tiles.length];
      [t[2], u[2]] = [u[2], t[2]];
      break;
    }
    case "tileIndex":
      t[0] = e.value;
      break;
    case "toggleLayerBit":
      if (Array.isArray(layers[l]) && typeof layers[l][1] === "number") layers[l][1] ^= e.value;
      break;
    case "toggleTileBit":
      if (typeof t[1] === "number") t[1] ^= e.value;
      break;
    case "swapLive": {
      const u = tiles[e.other % tiles.length];
      const ul = Array.isArray(u) && Array.isArray(u[2]) ? u[2] : [];
      const m = ul.length > 0 ? ul[e.layer % ul.length] : undefined;
      if (Array.isArray(layers[l]) && Array.isArray(m)) [layers[l][0], m[0]] = [m[0], layers[l][0]];
      break;
    }
    case "junk":
      if (layers[l]) layers[l] = e.value;
      else t[2] = e.value;
      break;
  }
}

export const tileCacheLayersTarget = {
  name: "tilecache-layers",
  description:
    "TileCache.deserialize on a format-3 cache with two layers per tile (a storey over another, restore tiles, a pending tile): edits of the META layer records (live tile indices, layer and tile bits, layers dropped, duplicated, swapped between tiles, junk values) with checksums repaired, then byte edits; every loaded cache is queried, takes obstacles on both storeys, rebuilds and saves again",
  arbitrary: fc.record({
    layerEdits: fc.array(layerEditArb, { minLength: 1, maxLength: 3 }),
    edits: fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, editsArb(2)),
    query: fc.nat(),
  }),
  async check(c) {
    const seed = layeredSeed();
    const { json, rest } = splitMeta(seed);
    for (const e of c.layerEdits) applyLayerEdit(json, e);
    let bytes = joinMeta(seed, json, rest);
    if (c.edits.length > 0) bytes = fixTileCacheChecksums(applyEdits(bytes, c.edits));
    const { cache, refused } = loadFuzzedTileCache(bytes);
    if (!cache) return refused;
    exerciseNavMesh(cache.navMesh, c.query, "loaded layered tile cache");
    try {
      cache.addObstacle({ kind: "cylinder", center: [12, 2.4, 8], radius: 1.5, height: 2 });
      cache.addObstacle({ kind: "cylinder", center: [4, 0, 14], radius: 1.5, height: 2 });
      cache.flush();
      for (const id of cache.obstacleIds()) cache.removeObstacle(id);
      cache.flush();
      TileCache.deserialize(cache.serialize(), "fuzz again");
    } catch (e) {
      acceptError(e, ["INVALID_ARGUMENT"], "loaded layered tile cache: obstacles, flush, save");
    }
    exerciseNavMesh(cache.navMesh, c.query + 1, "rebuilt layered tile cache");
    return "loaded, rebuilt and queried";
  },
};

// Tile cache files, format 3's range-coded tile blocks ('CTIL': heightfield, layer partition,
// tile areas, then the layers' navmesh tiles and restore tiles in one stream)

const CTIL_TAG = 0x4c495443;

/** Start and stored length of every block of a tile cache image whose tag is `tag`. */
function blocksTagged(bytes, tag) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = [];
  for (let at = 32; at + 16 <= bytes.length; ) {
    const len = dv.getUint32(at, true);
    if (dv.getUint32(at + 4, true) === tag) out.push({ at, len });
    at += 16 + Math.ceil(len / 8) * 8;
  }
  return out;
}

/** The image with the payload of the block at `at` (stored length `len`) replaced, repaired. */
function replaceBlockPayload(bytes, at, len, payload) {
  const oldEnd = at + 16 + Math.ceil(len / 8) * 8;
  const size = 16 + Math.ceil(payload.length / 8) * 8;
  const out = new Uint8Array(at + size + (bytes.length - oldEnd));
  out.set(bytes.subarray(0, at + 16), 0);
  out.set(payload, at + 16);
  out.set(bytes.subarray(oldEnd), at + size);
  const dv = new DataView(out.buffer);
  dv.setUint32(at, payload.length, true);
  const total = out.length - 32;
  dv.setUint32(8, total % 2 ** 32, true);
  dv.setUint32(12, Math.floor(total / 2 ** 32), true);
  return fixTileCacheChecksums(out);
}

export const tileCacheTilesTarget = {
  name: "tilecache-tiles",
  description:
    "TileCache.deserialize on format-3 caches (two storeys with restore tiles; volumes, obstacles, an off-mesh link, a pending tile) whose range-coded CTIL tile blocks are edited (bytes flipped, set, cut, inserted, dropped), lengths and checksums repaired; every loaded cache is queried, takes obstacles, rebuilds and saves again",
  arbitrary: fc.record({
    layered: fc.boolean(),
    block: fc.nat(),
    edits: editsArb(3),
    query: fc.nat(),
  }),
  async check(c) {
    const seed = c.layered ? layeredSeed() : tileCacheSeed();
    const blocks = blocksTagged(seed, CTIL_TAG);
    const { at, len } = blocks[c.block % blocks.length];
    const payload = applyEdits(seed.subarray(at + 16, at + 16 + len), c.edits);
    const bytes = replaceBlockPayload(seed, at, len, payload);
    const { cache, refused } = loadFuzzedTileCache(bytes);
    if (!cache) return refused;
    exerciseNavMesh(cache.navMesh, c.query, "loaded tile cache (edited tile block)");
    try {
      cache.addObstacle({ kind: "cylinder", center: [12, 2.4, 8], radius: 1.5, height: 2 });
      cache.addObstacle({ kind: "cylinder", center: [4, -0.5, 14], radius: 1.5, height: 3 });
      cache.flush();
      for (const id of cache.obstacleIds()) cache.removeObstacle(id);
      cache.flush();
      TileCache.deserialize(cache.serialize(), "fuzz again");
    } catch (e) {
      acceptError(
        e,
        ["INVALID_ARGUMENT"],
        "loaded tile cache (edited tile block): obstacles, flush, save",
      );
    }
    exerciseNavMesh(cache.navMesh, c.query + 1, "rebuilt tile cache (edited tile block)");
    return "loaded, rebuilt and queried";
  },
};

// ---------------------------------------------------------------------------------------------
// The build pipeline

const BUILD_CODES = ["INVALID_INPUT", "INVALID_CONFIG", "GRID_TOO_LARGE", "NO_TRIANGLES"];

/** Coordinates: mostly a small world, with tiny and huge (near float32 limits) values. */
const coordArb = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: -8, max: 40 }).map((i) => i * 0.5) },
  { weight: 6, arbitrary: fc.double({ min: -5, max: 25, noNaN: true }) },
  { weight: 1, arbitrary: fc.double({ min: -1e-30, max: 1e-30, noNaN: true }) },
);

/** Coordinates near the float32 limits, placed into a few vertices of a soup. */
const extremeArb = fc.array(
  fc.tuple(fc.nat(), fc.constantFrom(3e38, -3e38, 3.4028234e38, -3.4028234e38, 1e30, -1e20, 1e7)),
  { minLength: 1, maxLength: 3 },
);

/**
 * A triangle soup: a floor most of the time, plus random, sliver and repeated triangles; now
 * and then one poisoned coordinate or index (NaN, ±Infinity, beyond float32, out of range).
 */
const soupArb = fc.record({
  floor: fc.boolean(),
  vertices: fc.array(
    fc.tuple(
      coordArb,
      fc.oneof(
        fc.integer({ min: -2, max: 8 }).map((i) => i * 0.5),
        fc.double({ min: -1, max: 4, noNaN: true }),
      ),
      coordArb,
    ),
    { minLength: 0, maxLength: 24 },
  ),
  triangles: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { minLength: 0, maxLength: 30 }),
  slivers: fc.array(
    fc.tuple(fc.double({ min: 0, max: 20, noNaN: true }), fc.double({ min: -1e-6, max: 1e-6 })),
    { maxLength: 4 },
  ),
  extreme: rarely(extremeArb, 6),
  // The whole soup far from the origin, where float32 spacing reaches the cell size.
  offset: rarely(fc.constantFrom(1e4, 1e6, 1e7, -3e7, 1.6e7), 5),
  poison: rarely(
    fc.record({
      at: fc.nat(),
      value: fc.constantFrom(Number.NaN, Infinity, -Infinity, 1e39, -1, 1.5, 2 ** 32, 1000),
      index: fc.boolean(),
    }),
    8,
  ),
});

/** Every option at the edges of its range (the grid kept small by maxVoxels). */
const validConfigArb = fc.record(
  {
    cellSize: fc.constantFrom(0.05, 0.1, 0.25, 0.25, 0.3, 0.3, 1, 3, 1e-7),
    cellHeight: fc.constantFrom(0.01, 0.125, 0.2, 0.2, 1, 10, 1e-7),
    agentHeight: fc.constantFrom(1e-3, 0.1, 2, 2, 2, 50),
    agentRadius: fc.constantFrom(0, 0.1, 0.6, 0.6, 0.6, 0.6, 5, 1e5),
    agentMaxClimb: fc.constantFrom(0, 0.1, 0.9, 100),
    agentMaxSlope: fc.constantFrom(0, 1, 45, 89.9, 90),
    regionMinSize: fc.constantFrom(0, 1, 2, 8, 8, 1e4),
    regionMergeSize: fc.constantFrom(0, 1, 20, 1e4),
    edgeMaxLen: fc.constantFrom(0, 0.1, 12, 1e9),
    edgeMaxError: fc.constantFrom(0, 0.01, 1.3, 50, 1e4),
    vertsPerPoly: fc.constantFrom(3, 4, 6, 12),
    detailSampleDist: fc.constantFrom(0, 0.5, 0.9, 1, 6, 1e6),
    detailSampleMaxError: fc.constantFrom(0, 0.01, 1, 1e6),
    partition: fc.constantFrom("watershed", "monotone", "layers"),
    maxVoxels: fc.oneof(
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 2000 }) },
      { weight: 4, arbitrary: fc.integer({ min: 20_000, max: 1_500_000 }) },
    ),
  },
  { requiredKeys: ["maxVoxels"] },
);

/** One option set out of range (or of the wrong type). */
const badOptionArb = fc.oneof(
  fc.tuple(fc.constant("cellSize"), fc.constantFrom(0, -1, Number.NaN, Infinity, "0.3")),
  fc.tuple(fc.constant("agentMaxSlope"), fc.constantFrom(91, -1)),
  fc.tuple(fc.constant("vertsPerPoly"), fc.constantFrom(2, 13, 2.5)),
  fc.tuple(fc.constant("partition"), fc.constantFrom("other", 1, null)),
  fc.tuple(fc.constant("maxVoxels"), fc.constantFrom(0, -5, Number.NaN)),
  fc.tuple(fc.constantFrom("noSuchOption", "toString", "__proto__", "constructor"), fc.constant(1)),
);

const configArb = fc
  .tuple(validConfigArb, rarely(badOptionArb, 8))
  .map(([config, bad]) => (bad === null ? config : { ...config, [bad[0]]: bad[1] }));

function soupMesh(s) {
  const pos = [];
  const idx = [];
  if (s.floor) {
    pos.push(0, 0, 0, 0, 0, 10, 10, 0, 10, 10, 0, 0);
    idx.push(0, 1, 2, 0, 2, 3);
  }
  for (const v of s.vertices) pos.push(...v);
  const n = pos.length / 3;
  for (const [a, b, c] of s.triangles) {
    if (n === 0) break;
    idx.push(a % n, b % n, c % n);
  }
  // Slivers: three almost collinear points, and a triangle repeating one vertex.
  for (const [x, e] of s.slivers) {
    const k = pos.length / 3;
    pos.push(x, 0.5, 1, x + 5, 0.5, 1 + e, x + 10, 0.5, 1 + 2 * e);
    idx.push(k, k + 1, k + 2, k, k, k + 1);
  }
  if (s.offset !== null) {
    for (let i = 0; i < pos.length; i += 3) {
      pos[i] += s.offset;
      pos[i + 2] -= s.offset;
    }
  }
  if (s.extreme !== null && pos.length > 0) {
    for (const [at, v] of s.extreme) pos[at % pos.length] = v;
  }
  if (s.poison !== null) {
    if (s.poison.index || pos.length === 0) idx.push(0, 0, s.poison.value);
    else pos[s.poison.at % pos.length] = s.poison.value;
  }
  return { positions: pos, indices: idx };
}

function toTyped(m) {
  const positions = new Float32Array(m.positions);
  // Non-integer or negative indices cannot be represented in a Uint32Array: pass plain arrays.
  const typed = m.indices.every((i) => Number.isInteger(i) && i >= 0 && i < 2 ** 32);
  return { positions, indices: typed ? Uint32Array.from(m.indices) : m.indices };
}

export const buildTarget = {
  name: "build",
  description:
    "buildNavMesh on random triangle soups (degenerate, sliver, huge, tiny, duplicated, near ±3e38, NaN) with configs at the edges of their ranges; results must pass validateNavMesh, save and load, and build to the same bytes twice",
  arbitrary: fc.record({ soup: soupArb, config: configArb, plain: fc.boolean() }),
  async check(c) {
    const m = soupMesh(c.soup);
    const input = c.plain ? m : toTyped(m);
    let result;
    try {
      result = buildNavMesh(input, c.config);
    } catch (e) {
      return acceptError(e, BUILD_CODES, "buildNavMesh");
    }
    const { navMesh, stats } = result;
    // validateNavMesh's verdict is an outcome, not a violation: on adversarial soups Recast's
    // algorithm itself (which the build reproduces exactly) can leave collinear or overlapping
    // polygons; docs/fuzzing.md lists the cases found.
    const v = validateNavMesh(navMesh);
    const verdict = v.ok ? "valid" : `validateNavMesh: ${v.problems[0].replace(/\d+/g, "N")}`;
    for (const [k, value] of Object.entries(stats)) {
      if (typeof value === "number" && !Number.isFinite(value)) {
        violated("buildNavMesh", `stats.${k} is ${value}`);
      }
    }
    const bytes = serializeNavMesh(navMesh, c.config);
    const again = serializeNavMesh(buildNavMesh(input, c.config).navMesh, c.config);
    if (Buffer.compare(Buffer.from(bytes), Buffer.from(again)) !== 0) {
      violated("buildNavMesh", "two builds of the same input gave different bytes");
    }
    const loaded = deserializeNavMesh(bytes, "rebuilt.navmesh").navMesh;
    exerciseNavMesh(loaded, stats.polygons, "built navmesh");
    return navMesh.tiles[0].polyCount > 0 ? `built, ${verdict}` : "built, empty";
  },
};

// ---------------------------------------------------------------------------------------------
// Queries

const QUERY_CODES = ["INVALID_ARGUMENT"];

const goodCoord = fc.double({ min: -1, max: 21, noNaN: true });
const badNumber = fc.constantFrom(
  Number.NaN,
  Infinity,
  -Infinity,
  1e6,
  -1e6,
  1e30,
  1e308,
  -1e308,
  -0,
  5e-324,
);
const pointArb = fc.oneof(
  { weight: 10, arbitrary: fc.tuple(goodCoord, fc.constantFrom(0, 0.5, 2.5, 3, -1, 8), goodCoord) },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.oneof(goodCoord, badNumber),
      fc.oneof(goodCoord, badNumber),
      fc.oneof(goodCoord, badNumber),
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom([1, 2], [], null, [1, 2, 3, 4]) },
);
const extentsArb = fc.constantFrom(
  [2, 4, 2],
  [1, 1, 1],
  [0, 0, 0],
  [0.01, 0.01, 0.01],
  [100, 100, 100],
  [1e300, 1e300, 1e300],
  [Infinity, 1, 1],
  [Number.NaN, 1, 1],
  [-1, 1, 1],
  [1, 1],
);
const refArb = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant("valid"), i: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("skew"),
      i: fc.nat(),
      field: fc.constantFrom("salt", "tile", "poly"),
      delta: fc.constantFrom(1, -1, 7, 4095, 2 ** 19),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("raw"),
      v: fc.oneof(
        fc.constantFrom(0, -1, Number.NaN, Infinity, 2 ** 53, 1.5, 2 ** 52 + 3),
        fc.nat({ max: 2 ** 52 }),
      ),
    }),
  },
);
const filterArb = fc.record({
  include: fc.constantFrom(0xffff, 0xffff, 0, 1, 2),
  exclude: fc.constantFrom(0, 0, 0, 1, 0xffff),
  costs: fc.array(
    // Area 63 is the build's walkable area (every fixture polygon), 0 the off-mesh link's.
    fc.tuple(
      fc.oneof(fc.constantFrom(63, 0), fc.nat(63)),
      fc.constantFrom(1, 0, 1e-300, 10, 1e300, Infinity, Number.NaN, -1),
    ),
    { maxLength: 2 },
  ),
});
const countArb = fc.constantFrom(0, 1, 2, 3, 16, 1000, -1, Number.NaN, Infinity, 1.5);

const opArb = fc.oneof(
  fc.record({ op: fc.constant("nearest"), p: pointArb, ext: extentsArb, f: filterArb }),
  fc.record({
    op: fc.constant("queryPolygons"),
    p: pointArb,
    ext: extentsArb,
    f: filterArb,
    n: fc.nat(8),
  }),
  fc.record({ op: fc.constantFrom("closest", "boundary", "height"), r: refArb, p: pointArb }),
  fc.record({
    op: fc.constant("findPath"),
    a: refArb,
    b: refArb,
    pa: pointArb,
    pb: pointArb,
    f: filterArb,
    maxNodes: fc.option(fc.constantFrom(1, 2, 10, 5000), { nil: undefined }),
  }),
  fc.record({
    op: fc.constant("computePath"),
    pa: pointArb,
    pb: pointArb,
    ext: extentsArb,
    f: filterArb,
    maxNodes: fc.option(fc.constantFrom(1, 2, 10, 5000), { nil: undefined }),
    maxPoints: fc.option(countArb, { nil: undefined }),
    crossings: fc.constantFrom(undefined, "area", "all"),
  }),
  fc.record({
    op: fc.constant("straight"),
    pa: pointArb,
    pb: pointArb,
    refs: fc.array(refArb, { maxLength: 6 }),
    count: fc.oneof(fc.constant("all"), countArb),
  }),
  fc.record({
    op: fc.constant("raycast"),
    r: refArb,
    pa: pointArb,
    pb: pointArb,
    f: filterArb,
    costs: fc.boolean(),
  }),
  fc.record({ op: fc.constant("move"), r: refArb, pa: pointArb, pb: pointArb, f: filterArb }),
  fc.record({
    op: fc.constantFrom("wall", "circle", "randomAround"),
    r: refArb,
    p: pointArb,
    radius: fc.constantFrom(0, 0.5, 3, 50, 1e300, Infinity, -1, Number.NaN),
    f: filterArb,
  }),
  fc.record({
    op: fc.constant("random"),
    f: filterArb,
    rng: fc.constantFrom("seeded", "zero", "almostOne"),
  }),
  fc.record({
    op: fc.constant("slicedInit"),
    a: refArb,
    b: refArb,
    pa: pointArb,
    pb: pointArb,
    f: filterArb,
  }),
  fc.record({ op: fc.constant("slicedUpdate"), n: countArb }),
  fc.record({ op: fc.constant("slicedFinalize") }),
  fc.record({ op: fc.constant("removeTile"), r: refArb }),
  fc.record({ op: fc.constant("readdTile") }),
  fc.record({ op: fc.constant("removeOffMesh") }),
);

function makeFilter(spec) {
  const f = new QueryFilter();
  f.includeFlags = spec.include;
  f.excludeFlags = spec.exclude;
  for (const [area, cost] of spec.costs) f.setAreaCost(area, cost);
  return f;
}

/** Live refs of a navmesh: every ground polygon, then every off-mesh connection. */
function liveRefs(navMesh) {
  const refs = [];
  for (let slot = 1; slot < navMesh.slots.length; slot++) {
    const t = navMesh.tileInSlot(slot);
    if (t) for (let p = 0; p < t.polyCount; p++) refs.push(navMesh.polyRef(slot, p));
  }
  refs.push(...navMesh.offMeshConnectionRefs());
  return refs;
}

function resolveRef(spec, refs) {
  if (spec.kind === "raw") return spec.v;
  if (refs.length === 0) return 0;
  const ref = refs[spec.i % refs.length];
  if (spec.kind === "valid") return ref;
  let salt = saltOfRef(ref);
  let tile = tileOfRef(ref);
  let poly = polyOfRef(ref);
  const wrap = (v, m) => ((v % m) + m) % m;
  if (spec.field === "salt") salt = wrap(salt + spec.delta, 4096);
  else if (spec.field === "tile") tile = wrap(tile + spec.delta, 2 ** 20);
  else poly = wrap(poly + spec.delta, 2 ** 20);
  return encodePolyRef(salt, tile, poly);
}

function checkRefOut(navMesh, ref, where) {
  if (ref !== 0 && !navMesh.isValidPolyRef(ref)) violated(where, `returned a dead ref ${ref}`);
}

function checkPoints(a, n, where) {
  if (!allFinite(a, n)) violated(where, "non-finite output coordinate");
}

/** One query call; returns normally or throws (the caller sorts the error). */
function runOp(s, o) {
  const { q, navMesh } = s;
  const refs = s.refs;
  const R = (spec) => resolveRef(spec, refs);
  switch (o.op) {
    case "nearest": {
      const out = { ref: 0, point: new Float64Array(3), isOverPoly: false };
      const ref = q.findNearestPoly(o.p, o.ext, makeFilter(o.f), out);
      checkRefOut(navMesh, ref, "findNearestPoly");
      if (ref !== out.ref) violated("findNearestPoly", "return value differs from out.ref");
      if (ref !== 0) checkPoints(out.point, 3, "findNearestPoly");
      return;
    }
    case "queryPolygons": {
      const out = new Float64Array(o.n);
      const n = q.queryPolygons(o.p, o.ext, makeFilter(o.f), out);
      if (!(Number.isInteger(n) && n >= 0 && n <= o.n)) violated("queryPolygons", `count ${n}`);
      for (let i = 0; i < n; i++) checkRefOut(navMesh, out[i], "queryPolygons");
      return;
    }
    case "closest": {
      const out = new Float64Array(3);
      q.closestPointOnPoly(R(o.r), o.p, out);
      checkPoints(out, 3, "closestPointOnPoly");
      return;
    }
    case "boundary": {
      const out = new Float64Array(3);
      q.closestPointOnPolyBoundary(R(o.r), o.p, out);
      checkPoints(out, 3, "closestPointOnPolyBoundary");
      return;
    }
    case "height": {
      const h = q.getPolyHeight(R(o.r), o.p);
      if (!(Number.isFinite(h) || Number.isNaN(h))) violated("getPolyHeight", `height ${h}`);
      return;
    }
    case "findPath": {
      const r = q.findPath(R(o.a), R(o.b), o.pa, o.pb, makeFilter(o.f), [], undefined, o.maxNodes);
      checkStatus(r.status, "findPath");
      for (let i = 0; i < r.polyCount; i++) checkRefOut(navMesh, r.polys[i], "findPath");
      s.corridor = Array.from(r.polys).slice(0, r.polyCount);
      return;
    }
    case "computePath": {
      const straightPath = {};
      if (o.maxPoints !== undefined) straightPath.maxPoints = o.maxPoints;
      if (o.crossings === "area") straightPath.areaCrossings = true;
      if (o.crossings === "all") straightPath.allCrossings = true;
      const r = q.computePath(o.pa, o.pb, {
        halfExtents: o.ext,
        filter: makeFilter(o.f),
        maxNodes: o.maxNodes,
        straightPath,
      });
      checkStatus(r.status, "computePath");
      for (const p of r.points) checkPoints(p, 3, "computePath");
      if (!Number.isFinite(r.length)) violated("computePath", `length ${r.length}`);
      for (const ref of r.polys) checkRefOut(navMesh, ref, "computePath");
      s.corridor = r.polys;
      return;
    }
    case "straight": {
      const polys = o.refs.length > 0 ? o.refs.map(R) : s.corridor;
      const count = o.count === "all" ? polys.length : o.count;
      const status = q.findStraightPath(o.pa, o.pb, polys, count, s.straight);
      checkStatus(status, "findStraightPath");
      checkPoints(s.straight.points, s.straight.count * 3, "findStraightPath");
      return;
    }
    case "raycast": {
      const h = q.raycast(R(o.r), o.pa, o.pb, makeFilter(o.f), { useCosts: o.costs });
      if (!(h.t === Infinity || (h.t >= 0 && h.t <= 1))) violated("raycast", `t = ${h.t}`);
      checkPoints(h.hitNormal, 3, "raycast");
      if (o.costs && Number.isNaN(h.pathCost) && o.f.costs.length === 0) {
        violated("raycast", "pathCost is NaN with finite area costs");
      }
      for (let i = 0; i < h.pathCount; i++) checkRefOut(navMesh, h.path[i], "raycast");
      return;
    }
    case "move": {
      const m = q.moveAlongSurface(R(o.r), o.pa, o.pb, makeFilter(o.f));
      checkStatus(m.status, "moveAlongSurface");
      checkPoints(m.resultPos, 3, "moveAlongSurface");
      for (let i = 0; i < m.visitedCount; i++)
        checkRefOut(navMesh, m.visited[i], "moveAlongSurface");
      return;
    }
    case "wall": {
      const w = q.findDistanceToWall(R(o.r), o.p, o.radius, makeFilter(o.f));
      checkStatus(w.status, "findDistanceToWall");
      checkPoints(w.hitPos, 3, "findDistanceToWall");
      return;
    }
    case "circle": {
      const c = q.findPolysAroundCircle(R(o.r), o.p, o.radius, makeFilter(o.f));
      checkStatus(c.status, "findPolysAroundCircle");
      for (let i = 0; i < c.count; i++) checkRefOut(navMesh, c.refs[i], "findPolysAroundCircle");
      return;
    }
    case "randomAround": {
      const r = q.findRandomPointAroundCircle(
        R(o.r),
        o.p,
        o.radius,
        makeFilter(o.f),
        mulberry32(7),
      );
      checkStatus(r.status, "findRandomPointAroundCircle");
      checkRefOut(navMesh, r.ref, "findRandomPointAroundCircle");
      if (r.ref !== 0) checkPoints(r.point, 3, "findRandomPointAroundCircle");
      return;
    }
    case "random": {
      const rng =
        o.rng === "seeded" ? mulberry32(11) : o.rng === "zero" ? () => 0 : () => 1 - 2 ** -53;
      const r = q.findRandomPoint(makeFilter(o.f), rng);
      checkStatus(r.status, "findRandomPoint");
      checkRefOut(navMesh, r.ref, "findRandomPoint");
      if (r.ref !== 0) checkPoints(r.point, 3, "findRandomPoint");
      return;
    }
    case "slicedInit": {
      const st = q.initSlicedFindPath(R(o.a), R(o.b), o.pa, o.pb, makeFilter(o.f));
      if (st !== "inProgress") checkStatus(st, "initSlicedFindPath");
      return;
    }
    case "slicedUpdate": {
      const st = q.updateSlicedFindPath(o.n);
      if (st !== "inProgress") checkStatus(st, "updateSlicedFindPath");
      return;
    }
    case "slicedFinalize": {
      const r = q.finalizeSlicedFindPath();
      checkStatus(r.status, "finalizeSlicedFindPath");
      for (let i = 0; i < r.polyCount; i++)
        checkRefOut(navMesh, r.polys[i], "finalizeSlicedFindPath");
      return;
    }
    case "removeTile": {
      const ref = R(o.r);
      const tile = navMesh.removeTile(ref);
      s.removed.push(tile);
      s.refs = liveRefs(navMesh);
      return;
    }
    case "readdTile": {
      const tile = s.removed.pop();
      if (tile) navMesh.addTile(tile);
      s.refs = liveRefs(navMesh);
      return;
    }
    case "removeOffMesh": {
      const [ref] = navMesh.offMeshConnectionRefs();
      if (ref !== undefined) navMesh.removeOffMeshConnection(ref);
      s.refs = liveRefs(navMesh);
      return;
    }
  }
}

export const queryTarget = {
  name: "query",
  description:
    "sequences of every NavMeshQuery call (NaN/Infinity/far points, stale refs and refs with a wrong salt/tile/poly, filters excluding everything, zero and huge half extents, maxNodes 1, sliced path misuse, tiles removed in between) on a solo and a tiled navmesh",
  arbitrary: fc.record({
    mesh: fc.constantFrom("solo", "tiled"),
    maxNodes: fc.constantFrom(1, 2, 8, 4096),
    ops: fc.array(opArb, { minLength: 1, maxLength: 10 }),
  }),
  async check(c) {
    const f = await fixtures();
    const navMesh = freshNavMesh(f, c.mesh);
    const q = new NavMeshQuery(navMesh, { maxNodes: c.maxNodes });
    const s = {
      q,
      navMesh,
      refs: liveRefs(navMesh),
      corridor: [],
      removed: [],
      straight: new StraightPath(4),
    };
    let refused = 0;
    for (const o of c.ops) {
      try {
        runOp(s, o);
      } catch (e) {
        acceptError(e, QUERY_CODES, `query op ${o.op}`);
        refused++;
      }
    }
    return refused === 0
      ? "every op answered"
      : refused === c.ops.length
        ? "every op refused"
        : "some ops refused";
  },
};

/** Every target, in the order the deep run reports them. */
export const targets = [
  objTarget,
  gltfTarget,
  navmeshTarget,
  detourTarget,
  tileCacheTarget,
  tileCacheLayersTarget,
  tileCacheTilesTarget,
  buildTarget,
  queryTarget,
];
