import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Document,
  Format,
  type Buffer as GBuffer,
  type GLTF,
  type Logger,
  type Mesh,
  type Node,
  NodeIO,
  Primitive,
} from "@gltf-transform/core";
import { afterAll, describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import type { TriangleMesh } from "../../src/input.js";
import { loadGltfMesh, parseGlb, parseGltf } from "../../src/node/gltf/index.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { SceneBuilder } from "../helpers/scenes.js";

const CONFIG = { cellSize: 0.25, cellHeight: 0.125, agentRadius: 0.5 };
const SILENT = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;
const io = new NodeIO().setLogger(SILENT);

const tmp = mkdtempSync(join(tmpdir(), "meshway-gltf-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type V3 = [number, number, number];
type Q = [number, number, number, number];

/** A document holding one buffer; meshes are added with addMesh. */
function newDoc(): { doc: Document; buffer: GBuffer } {
  const doc = new Document().setLogger(SILENT);
  return { doc, buffer: doc.createBuffer() };
}

function addMesh(
  doc: Document,
  buffer: GBuffer,
  positions: ArrayLike<number>,
  indices: ArrayLike<number> | null,
  name = "Level",
  mode: GLTF.MeshPrimitiveMode = Primitive.Mode.TRIANGLES!,
): Mesh {
  const pos = doc
    .createAccessor()
    .setType("VEC3")
    .setArray(Float32Array.from(positions))
    .setBuffer(buffer);
  const prim = doc.createPrimitive().setAttribute("POSITION", pos).setMode(mode);
  if (indices) {
    prim.setIndices(
      doc.createAccessor().setType("SCALAR").setArray(Uint32Array.from(indices)).setBuffer(buffer),
    );
  }
  return doc.createMesh(name).addPrimitive(prim);
}

/** One scene, one node holding `mesh`, optionally with a transform. */
function sceneDoc(
  mesh: TriangleMesh,
  node?: { t?: V3; r?: Q; s?: V3 },
): { doc: Document; node: Node } {
  const { doc, buffer } = newDoc();
  const n = doc.createNode("root").setMesh(addMesh(doc, buffer, mesh.positions, mesh.indices));
  if (node?.t) n.setTranslation(node.t);
  if (node?.r) n.setRotation(node.r);
  if (node?.s) n.setScale(node.s);
  doc.getRoot().setDefaultScene(doc.createScene().addChild(n));
  return { doc, node: n };
}

async function glbOf(doc: Document): Promise<Uint8Array> {
  return io.writeBinary(doc);
}

/** Packs glTF JSON and an optional BIN chunk into GLB bytes (for hand-made files). */
function packGlb(json: object, bin?: Uint8Array): Uint8Array {
  const pad = (b: Uint8Array, fill: number) => {
    const out = new Uint8Array(Math.ceil(b.length / 4) * 4).fill(fill);
    out.set(b);
    return out;
  };
  const jsonChunk = pad(new TextEncoder().encode(JSON.stringify(json)), 0x20);
  const binChunk = bin ? pad(bin, 0) : null;
  const total = 12 + 8 + jsonChunk.length + (binChunk ? 8 + binChunk.length : 0);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, total, true);
  dv.setUint32(12, jsonChunk.length, true);
  dv.setUint32(16, 0x4e4f534a, true);
  out.set(jsonChunk, 20);
  if (binChunk) {
    const at = 20 + jsonChunk.length;
    dv.setUint32(at, binChunk.length, true);
    dv.setUint32(at + 4, 0x004e4942, true);
    out.set(binChunk, at + 8);
  }
  return out;
}

// biome-ignore lint/suspicious/noExplicitAny: tests edit glTF JSON freely, valid or not
type GltfJson = Record<string, any>;

/** glTF JSON + BIN of a document, ready to be edited and packed again. */
async function jsonOf(doc: Document): Promise<{ json: GltfJson; bin: Uint8Array }> {
  const { json, resources } = await io.writeJSON(doc, { format: Format.GLB });
  return { json: json as GltfJson, bin: Object.values(resources)[0]! };
}

function rotate(q: Q, v: V3): V3 {
  // v' = v + 2w(u × v) + 2u × (u × v), u = (x, y, z)
  const [x, y, z, w] = q;
  const cx = y * v[2] - z * v[1];
  const cy = z * v[0] - x * v[2];
  const cz = x * v[1] - y * v[0];
  return [
    v[0] + 2 * w * cx + 2 * (y * cz - z * cy),
    v[1] + 2 * w * cy + 2 * (z * cx - x * cz),
    v[2] + 2 * w * cz + 2 * (x * cy - y * cx),
  ];
}

/** p ↦ t + r·(s ∘ p), a glTF node's local transform. */
function trs(t: V3, r: Q, s: V3): (p: V3) => V3 {
  return (p) => {
    const q = rotate(r, [p[0] * s[0], p[1] * s[1], p[2] * s[2]]);
    return [q[0] + t[0], q[1] + t[1], q[2] + t[2]];
  };
}

function axisAngle(axis: V3, angle: number): Q {
  const l = Math.hypot(...axis);
  const s = Math.sin(angle / 2) / l;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

function expectPositionsClose(actual: Float32Array, source: TriangleMesh, f: (p: V3) => V3): void {
  expect(actual.length).toBe(source.positions.length);
  let worst = 0;
  for (let i = 0; i < actual.length; i += 3) {
    const p = source.positions;
    const e = f([p[i]!, p[i + 1]!, p[i + 2]!]);
    for (let k = 0; k < 3; k++) {
      // Relative to the magnitude: the output is float32.
      const err = Math.abs(actual[i + k]! - e[k]!) / Math.max(1, Math.abs(e[k]!));
      worst = Math.max(worst, err);
    }
  }
  expect(worst).toBeLessThan(1e-6);
}

/** Upward component of each triangle's normal cross(v1 − v0, v2 − v0). */
function normalYs(mesh: TriangleMesh): number[] {
  const out: number[] = [];
  const p = mesh.positions;
  for (let t = 0; t < mesh.triangleCount; t++) {
    const [a, b, c] = [mesh.indices[t * 3]!, mesh.indices[t * 3 + 1]!, mesh.indices[t * 3 + 2]!];
    const ux = p[b * 3]! - p[a * 3]!;
    const uz = p[b * 3 + 2]! - p[a * 3 + 2]!;
    const vx = p[c * 3]! - p[a * 3]!;
    const vz = p[c * 3 + 2]! - p[a * 3 + 2]!;
    out.push(uz * vx - ux * vz);
  }
  return out;
}

function triangles(mesh: TriangleMesh): number[][] {
  const out: number[][] = [];
  for (let t = 0; t < mesh.triangleCount; t++)
    out.push(Array.from(mesh.indices.subarray(t * 3, t * 3 + 3)));
  return out;
}

async function rejection(p: Promise<unknown>): Promise<MeshwayError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(MeshwayError);
    return e as MeshwayError;
  }
  throw new Error("expected a rejection");
}

const small = new SceneBuilder().floor(0, 0, 10, 10).box(5, 0, 5, 2, 2, 2).build();

describe("glTF/GLB input: geometry", () => {
  it("a GLB of dungeon.obj loads to exactly the OBJ's vertices and triangles", async () => {
    const obj = loadSharedMesh("dungeon");
    const { mesh, warnings } = await parseGlb(await glbOf(sceneDoc(obj).doc), "dungeon.glb");
    expect(mesh.positions).toEqual(obj.positions);
    expect(mesh.indices).toEqual(obj.indices);
    expect(mesh.triangleCount).toBe(obj.triangleCount);
    expect(warnings).toEqual([]);
  });

  it("a .gltf with an external .bin and one with a data-URI buffer load the same triangles", async () => {
    const obj = loadSharedMesh("dungeon");
    const { doc } = sceneDoc(obj);
    const dir = join(tmp, "sub dir");
    mkdirSync(dir, { recursive: true });
    await io.write(join(dir, "dungeon.gltf"), doc); // writes dungeon.bin next to it
    const external = await loadGltfMesh(join(dir, "dungeon.gltf"));
    expect(external.mesh.positions).toEqual(obj.positions);
    expect(external.mesh.indices).toEqual(obj.indices);

    const { json, bin } = await jsonOf(doc);
    json.buffers[0].uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString("base64")}`;
    writeFileSync(join(tmp, "embedded.gltf"), JSON.stringify(json));
    const embedded = await loadGltfMesh(join(tmp, "embedded.gltf"));
    expect(embedded.mesh.positions).toEqual(obj.positions);
    expect(embedded.mesh.indices).toEqual(obj.indices);
    // The same bytes parsed without a directory: data URIs need none.
    const fromBytes = await parseGltf(
      new TextEncoder().encode(JSON.stringify(json)),
      "embedded.gltf",
    );
    expect(fromBytes.mesh.indices).toEqual(obj.indices);
  });

  it("nested node translation, rotation and scale are composed down the hierarchy", async () => {
    const obj = loadSharedMesh("dungeon");
    const { doc, buffer } = newDoc();
    const T: { t: V3; r: Q; s: V3 }[] = [
      { t: [10, -2, 5], r: axisAngle([0, 1, 0], Math.PI / 3), s: [2, 2, 2] },
      { t: [1, 2, 3], r: axisAngle([1, 0, 1], 0.25), s: [1, 0.5, 1.5] },
      { t: [-4, 0, 0.5], r: axisAngle([0, 0, 1], -0.1), s: [0.75, 1, 1] },
    ];
    const nodes = T.map((x, i) =>
      doc.createNode(`n${i}`).setTranslation(x.t).setRotation(x.r).setScale(x.s),
    );
    nodes[0]!.addChild(nodes[1]!);
    nodes[1]!.addChild(nodes[2]!);
    nodes[2]!.setMesh(addMesh(doc, buffer, obj.positions, obj.indices));
    doc.getRoot().setDefaultScene(doc.createScene().addChild(nodes[0]!));
    const { mesh } = await parseGlb(await glbOf(doc), "nested.glb");
    const [f0, f1, f2] = T.map((x) => trs(x.t, x.r, x.s));
    expectPositionsClose(mesh.positions, obj, (p) => f0!(f1!(f2!(p))));
    expect(mesh.indices).toEqual(obj.indices); // no mirror: winding kept
  });

  it("a node's column-major matrix is applied as written", async () => {
    const { json, bin } = await jsonOf(sceneDoc(small).doc);
    // Columns: x → -z, y → y, z → x (90° about +y), then translate (5, 1, 2).
    json.nodes[0] = { mesh: 0, matrix: [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 5, 1, 2, 1] };
    const { mesh } = await parseGlb(packGlb(json, bin), "matrix.glb");
    expectPositionsClose(mesh.positions, small, ([x, y, z]) => [z + 5, y + 1, -x + 2]);
  });

  it("a mirrored node keeps floors walkable: same navmesh area as the unmirrored scene", async () => {
    const plain = await parseGlb(await glbOf(sceneDoc(small).doc), "plain.glb");
    const mirrored = await parseGlb(await glbOf(sceneDoc(small, { s: [-1, 1, 1] }).doc), "m.glb");
    // The mirror image of the same triangles: positions mirrored, every winding reversed.
    expectPositionsClose(mirrored.mesh.positions, small, ([x, y, z]) => [-x, y, z]);
    const facing = (ys: number[]) => ys.map((y) => (y > 1e-9 ? "up" : y < -1e-9 ? "down" : "side"));
    expect(facing(normalYs(mirrored.mesh))).toEqual(facing(normalYs(plain.mesh)));

    const area = buildNavMesh(plain.mesh, CONFIG).navMesh.area();
    expect(area).toBeGreaterThan(50);
    expect(buildNavMesh(mirrored.mesh, CONFIG).navMesh.area()).toBeCloseTo(area, 6);

    // Two mirrors cancel (determinant > 0): winding kept as written.
    const { doc, node } = sceneDoc(small, { s: [1, 1, -1] });
    const parent = doc.createNode("mirror").setScale([-1, 1, 1]).addChild(node);
    doc.getRoot().listScenes()[0]!.removeChild(node).addChild(parent);
    const twice = await parseGlb(await glbOf(doc), "twice.glb");
    expect(twice.mesh.indices).toEqual(small.indices);
    expect(buildNavMesh(twice.mesh, CONFIG).navMesh.area()).toBeCloseTo(area, 6);

    // A mirroring matrix (determinant −1) flips winding like a negative scale does.
    const { json, bin } = await jsonOf(sceneDoc(small).doc);
    json.nodes[0] = { mesh: 0, matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1] };
    const viaMatrix = await parseGlb(packGlb(json, bin), "mirror-matrix.glb");
    expect(buildNavMesh(viaMatrix.mesh, CONFIG).navMesh.area()).toBeCloseTo(area, 6);
  });

  it("triangle strips alternate winding, fans share the first vertex, all facing like the first", async () => {
    // A strip zigzagging along +x and a fan around the origin, both on the floor facing up.
    const strip = [0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 2, 0, 0, 2, 0, 1];
    const fan = [0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1, 0, -1];
    const { doc, buffer } = newDoc();
    const scene = doc.createScene();
    doc.getRoot().setDefaultScene(scene);
    const add = (name: string, pos: number[], idx: number[] | null, mode: GLTF.MeshPrimitiveMode) =>
      scene.addChild(doc.createNode(name).setMesh(addMesh(doc, buffer, pos, idx, name, mode)));
    add("strip", strip, null, Primitive.Mode.TRIANGLE_STRIP!);
    add("fan", fan, null, Primitive.Mode.TRIANGLE_FAN!);
    // Indexed strip whose stitching triangles repeat a vertex: only the first is real.
    add("stitched", strip, [0, 1, 2, 2, 2, 3], Primitive.Mode.TRIANGLE_STRIP!);
    add("fanIdx", fan, [0, 1, 2, 3], Primitive.Mode.TRIANGLE_FAN!);
    const { mesh, warnings } = await parseGlb(await glbOf(doc), "strips.glb");
    expect(warnings).toEqual([]);
    expect(triangles(mesh)).toEqual([
      // strip (vertices 0..5): p_i = v_i, v_{i+1+i%2}, v_{i+2-i%2}
      [0, 1, 2],
      [1, 3, 2],
      [2, 3, 4],
      [3, 5, 4],
      // fan (vertices 6..10)
      [6, 7, 8],
      [6, 8, 9],
      [6, 9, 10],
      // stitched strip (vertices 11..16)
      [11, 12, 13],
      // indexed fan (vertices 17..21)
      [17, 18, 19],
      [17, 19, 20],
    ]);
    for (const y of normalYs(mesh)) expect(y).toBeGreaterThan(0);

    // Mirrored, the strip still faces up.
    const { doc: d2, buffer: b2 } = newDoc();
    d2.getRoot().setDefaultScene(
      d2.createScene().addChild(
        d2
          .createNode("m")
          .setScale([-1, 1, 1])
          .setMesh(addMesh(d2, b2, strip, null, "s", Primitive.Mode.TRIANGLE_STRIP!)),
      ),
    );
    const mirrored = await parseGlb(await glbOf(d2), "mirrored-strip.glb");
    for (const y of normalYs(mirrored.mesh)) expect(y).toBeGreaterThan(0);
  });

  it("a POINTS or LINES primitive is skipped with a warning naming its mesh and primitive", async () => {
    const { doc, buffer } = newDoc();
    const mesh = addMesh(doc, buffer, small.positions, small.indices, "Props");
    const pts = doc
      .createAccessor()
      .setType("VEC3")
      .setArray(new Float32Array([0, 5, 0, 1, 5, 1]))
      .setBuffer(buffer);
    mesh.addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", pts).setMode(Primitive.Mode.POINTS!),
    );
    mesh.addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", pts).setMode(Primitive.Mode.LINES!),
    );
    doc.getRoot().setDefaultScene(doc.createScene().addChild(doc.createNode().setMesh(mesh)));
    const { mesh: out, warnings } = await parseGlb(await glbOf(doc), "props.glb");
    expect(out.triangleCount).toBe(small.triangleCount);
    expect(out.positions).toEqual(small.positions); // the points' vertices are not copied
    expect(warnings).toEqual([
      'props.glb: mesh 0 "Props" primitive 1 is POINTS, not triangles; skipped',
      'props.glb: mesh 0 "Props" primitive 2 is LINES, not triangles; skipped',
    ]);
  });

  it("reads the default scene, else scene 0, else every root node; a shared mesh appears per node", async () => {
    const floorA = new SceneBuilder().floor(0, 0, 1, 1).build();
    const make = (defaultScene: number | null, withScenes = true) => {
      const { doc, buffer } = newDoc();
      const a = doc
        .createNode("a")
        .setMesh(addMesh(doc, buffer, floorA.positions, floorA.indices, "A"));
      const shared = addMesh(doc, buffer, floorA.positions, floorA.indices, "B");
      const b1 = doc.createNode("b1").setMesh(shared).setTranslation([10, 0, 0]);
      const b2 = doc.createNode("b2").setMesh(shared).setTranslation([20, 0, 0]);
      if (withScenes) {
        const s0 = doc.createScene("s0").addChild(a);
        const s1 = doc.createScene("s1").addChild(b1).addChild(b2);
        if (defaultScene !== null) doc.getRoot().setDefaultScene(defaultScene === 0 ? s0 : s1);
      }
      return glbOf(doc);
    };
    const s1 = await parseGlb(await make(1), "s1.glb");
    expect(s1.mesh.triangleCount).toBe(4);
    expect(Math.min(...s1.mesh.positions.filter((_, i) => i % 3 === 0))).toBe(10);
    expect(Math.max(...s1.mesh.positions.filter((_, i) => i % 3 === 0))).toBe(21);
    const s0 = await parseGlb(await make(null), "s0.glb");
    expect(s0.mesh.positions).toEqual(floorA.positions);
    const roots = await parseGlb(await make(null, false), "roots.glb");
    expect(roots.mesh.triangleCount).toBe(6);
  });

  it("decodes interleaved, sparse and quantized (normalized integer) positions", async () => {
    // Interleaved: POSITION and NORMAL share one strided buffer view.
    const { doc, buffer } = newDoc();
    const mesh = addMesh(doc, buffer, small.positions, small.indices);
    const normals = new Float32Array(small.positions.length).fill(0.5);
    mesh
      .listPrimitives()[0]!
      .setAttribute(
        "NORMAL",
        doc.createAccessor().setType("VEC3").setArray(normals).setBuffer(buffer),
      );
    doc.getRoot().setDefaultScene(doc.createScene().addChild(doc.createNode().setMesh(mesh)));
    const { json, bin } = await jsonOf(doc);
    expect(json.bufferViews.some((v: { byteStride?: number }) => v.byteStride === 24)).toBe(true);
    expect((await parseGlb(packGlb(json, bin), "interleaved.glb")).mesh.positions).toEqual(
      small.positions,
    );

    // Sparse: mostly-zero positions stored as substitutions over a zero-filled accessor.
    const sparsePos = new Float32Array(30);
    sparsePos.set([1, 2, 3], 3);
    sparsePos.set([4, 5, 6], 12);
    const s = newDoc();
    const sm = addMesh(s.doc, s.buffer, sparsePos, [0, 1, 4, 1, 2, 4]);
    sm.listPrimitives()[0]!.getAttribute("POSITION")!.setSparse(true);
    s.doc.getRoot().setDefaultScene(s.doc.createScene().addChild(s.doc.createNode().setMesh(sm)));
    const sj = await jsonOf(s.doc);
    expect(sj.json.accessors[0].sparse).toBeDefined();
    expect((await parseGlb(packGlb(sj.json, sj.bin), "sparse.glb")).mesh.positions).toEqual(
      sparsePos,
    );

    // A sparse index at or past the accessor's count is refused, not silently dropped.
    const bad = structuredClone(sj.json);
    const sparse = bad.accessors[0].sparse;
    const ixView = bad.bufferViews[sparse.indices.bufferView];
    const ixAt = (ixView.byteOffset ?? 0) + (sparse.indices.byteOffset ?? 0);
    const badBin = sj.bin.slice();
    const dv = new DataView(badBin.buffer, badBin.byteOffset, badBin.byteLength);
    const put = [5121, 5123, 5125].indexOf(sparse.indices.componentType);
    if (put === 0) dv.setUint8(ixAt, 10);
    else if (put === 1) dv.setUint16(ixAt, 10, true);
    else dv.setUint32(ixAt, 10, true);
    await expect(parseGlb(packGlb(bad, badBin), "sparse-past.glb")).rejects.toThrow(
      /sparse-past\.glb: accessors\[\d+\]\.sparse\.indices\[0\] is 10; expected an index below the accessor's count 10/,
    );

    // KHR_mesh_quantization: unsigned shorts normalized to 0..1, scaled back by the node.
    const q = newDoc();
    const raw = new Uint16Array([0, 0, 0, 0, 0, 65535, 65535, 0, 65535, 65535, 32768, 0]);
    const qpos = q.doc
      .createAccessor()
      .setType("VEC3")
      .setArray(raw)
      .setNormalized(true)
      .setBuffer(q.buffer);
    const qidx = q.doc
      .createAccessor()
      .setType("SCALAR")
      .setArray(new Uint16Array([0, 1, 2, 0, 2, 3]))
      .setBuffer(q.buffer);
    const qmesh = q.doc
      .createMesh()
      .addPrimitive(q.doc.createPrimitive().setAttribute("POSITION", qpos).setIndices(qidx));
    q.doc
      .getRoot()
      .setDefaultScene(
        q.doc.createScene().addChild(q.doc.createNode().setMesh(qmesh).setScale([10, 10, 10])),
      );
    const qj = await jsonOf(q.doc);
    qj.json.extensionsUsed = ["KHR_mesh_quantization"];
    qj.json.extensionsRequired = ["KHR_mesh_quantization"];
    const quant = await parseGlb(packGlb(qj.json, qj.bin), "quantized.glb");
    expect(quant.warnings).toEqual([]);
    expect(Array.from(quant.mesh.positions, (v) => Math.round(v * 1e4) / 1e4)).toEqual([
      0, 0, 0, 0, 0, 10, 10, 0, 10, 10, 5.0001, 0,
    ]);
  });

  it("nav_test.obj through a GLB builds the same navmesh polygon count as the OBJ", async () => {
    const obj = loadSharedMesh("nav_test");
    const { mesh } = await parseGlb(await glbOf(sceneDoc(obj).doc), "nav_test.glb");
    const fromObj = buildNavMesh(obj).stats;
    const fromGlb = buildNavMesh(mesh).stats;
    expect(fromGlb.polygons).toBe(fromObj.polygons);
    expect(fromGlb.polygons).toBeGreaterThan(100);
    expect(buildNavMesh(mesh).navMesh.area()).toBe(buildNavMesh(obj).navMesh.area());
  });
});

describe("glTF/GLB input: errors", () => {
  const base = async () => jsonOf(sceneDoc(small).doc);

  it("a GLB with a bad chunk length is refused, naming the chunk and the sizes", async () => {
    const glb = await glbOf(sceneDoc(small).doc);
    const badJson = glb.slice();
    new DataView(badJson.buffer).setUint32(12, 1_000_000, true);
    const e1 = await rejection(parseGlb(badJson, "level.glb"));
    expect(e1.code).toBe("INVALID_INPUT");
    expect(e1.message).toMatch(
      /^level\.glb: bad GLB chunk length: chunk 0 \(JSON\) at byte 12 declares 1000000 bytes but only \d+ remain/,
    );
    const badBin = glb.slice();
    const jsonLen = new DataView(badBin.buffer).getUint32(12, true);
    new DataView(badBin.buffer).setUint32(20 + jsonLen, 0xfffffff0, true);
    expect((await rejection(parseGlb(badBin, "level.glb"))).message).toMatch(/chunk 1 \(BIN\)/);
  });

  it("bad magic, a truncated GLB, random bytes and broken JSON give clear messages", async () => {
    const glb = await glbOf(sceneDoc(small).doc);
    expect(
      (await rejection(parseGlb(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]), "r.glb")))
        .message,
    ).toBe('r.glb: bad GLB magic: expected "glTF", found bytes 01 02 03 04');
    expect((await rejection(parseGlb(glb.slice(0, glb.length - 10), "t.glb"))).message).toMatch(
      /^t\.glb: truncated GLB: the header declares \d+ bytes but the file has \d+$/,
    );
    const v1 = glb.slice();
    new DataView(v1.buffer).setUint32(4, 1, true);
    expect((await rejection(parseGlb(v1, "v1.glb"))).message).toBe(
      "v1.glb: GLB version 1 is not supported (expected 2)",
    );
    const notJson = await rejection(
      parseGltf(new TextEncoder().encode('{"asset": '), "broken.gltf"),
    );
    expect(notJson.message).toMatch(/^broken\.gltf: the file is not valid JSON/);
    const binary = await rejection(parseGltf(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), "png.gltf"));
    expect(binary.message).toMatch(/^png\.gltf: not a glTF file/);
    writeFileSync(
      join(tmp, "random.glb"),
      new Uint8Array(64).map((_, i) => (i * 37 + 11) & 255),
    );
    expect((await rejection(loadGltfMesh(join(tmp, "random.glb")))).message).toMatch(
      /bad GLB magic/,
    );
  });

  it("Draco and meshopt files are refused naming the extension, before buffers are read", async () => {
    const { json } = await base();
    json.extensionsUsed = ["KHR_draco_mesh_compression"];
    json.extensionsRequired = ["KHR_draco_mesh_compression"];
    json.buffers[0].uri = "missing.bin"; // never looked at
    writeFileSync(join(tmp, "draco.gltf"), JSON.stringify(json));
    const draco = await rejection(loadGltfMesh(join(tmp, "draco.gltf")));
    expect(draco.code).toBe("INVALID_INPUT");
    expect(draco.message).toMatch(
      /draco\.gltf: uses KHR_draco_mesh_compression \(compressed geometry\)/,
    );

    const m = await base();
    m.json.extensionsUsed = ["EXT_meshopt_compression"]; // used, not required: still refused
    const meshopt = await rejection(parseGlb(packGlb(m.json, m.bin), "meshopt.glb"));
    expect(meshopt.message).toMatch(/^meshopt\.glb: uses EXT_meshopt_compression/);
  });

  it("missing buffers, bad accessors and out-of-range indices are located errors, not crashes", async () => {
    const a = await base();
    a.json.buffers[0].uri = "gone.bin";
    writeFileSync(join(tmp, "gone.gltf"), JSON.stringify(a.json));
    expect((await rejection(loadGltfMesh(join(tmp, "gone.gltf")))).message).toMatch(
      /gone\.gltf: buffers\[0\] "gone\.bin" could not be read: no such file \(.*gone\.bin\)$/,
    );
    // The same file from bytes alone cannot resolve the external buffer.
    expect((await rejection(parseGlb(packGlb(a.json), "ext.glb"))).message).toMatch(
      /^ext\.glb: buffers\[0\] refers to the external file "gone\.bin"/,
    );

    const b = await base();
    delete b.json.buffers[0].uri;
    expect((await rejection(parseGlb(packGlb(b.json), "nobin.glb"))).message).toBe(
      "nobin.glb: buffers[0] has no uri and the file has no GLB BIN chunk to hold it",
    );

    const c = await base();
    c.json.accessors[0].count *= 2;
    expect((await rejection(parseGlb(packGlb(c.json, c.bin), "count.glb"))).message).toMatch(
      /^count\.glb: accessors\[0\] needs \d+ bytes \(count \d+, offset 0, stride 12\) but bufferViews\[\d\] has \d+$/,
    );

    const d = await base();
    d.json.accessors[1].componentType = 5126;
    expect((await rejection(parseGlb(packGlb(d.json, d.bin), "ctype.glb"))).message).toMatch(
      /accessors\[1\]\.componentType is 5126; indices accessors need one of 5121, 5123, 5125/,
    );

    const e = await base();
    e.json.meshes[0].primitives[0].indices = 42;
    expect((await rejection(parseGlb(packGlb(e.json, e.bin), "ref.glb"))).message).toBe(
      "ref.glb: meshes[0].primitives[0].indices is 42; expected an index into accessors (0..1)",
    );

    // An index past the vertex count: patch the first index in the BIN chunk.
    const f = await base();
    const view = f.json.bufferViews[f.json.accessors[1].bufferView];
    const bin = f.bin.slice();
    const at = (view.byteOffset ?? 0) + (f.json.accessors[1].byteOffset ?? 0);
    const ct = f.json.accessors[1].componentType;
    if (ct === 5121) bin[at] = 99;
    else if (ct === 5123) new DataView(bin.buffer).setUint16(at, 99, true);
    else new DataView(bin.buffer).setUint32(at, 99, true);
    expect((await rejection(parseGlb(packGlb(f.json, bin), "idx.glb"))).message).toMatch(
      /^idx\.glb: mesh 0 "Level" primitive 0: index 99 at position 0 of accessors\[1\] is out of range \(its POSITION accessor has \d+ vertices\)$/,
    );

    const g = await base();
    g.json.bufferViews[0].byteLength = 1e6;
    expect((await rejection(parseGlb(packGlb(g.json, g.bin), "view.glb"))).message).toMatch(
      /^view\.glb: bufferViews\[0\] covers bytes \d+\.\.\d+ but buffers\[0\] has \d+$/,
    );
  });

  it("node cycles, bad transforms, glTF 1.0 and files without triangles are refused", async () => {
    const a = await base();
    a.json.nodes.push({ children: [0] });
    a.json.nodes[0].children = [1];
    expect((await rejection(parseGlb(packGlb(a.json, a.bin), "cycle.glb"))).message).toMatch(
      /^cycle\.glb: nodes\[\d\] is reached twice in scene 0/,
    );
    const b = await base();
    b.json.nodes[0].rotation = [0, 0, 0, 0];
    expect((await rejection(parseGlb(packGlb(b.json, b.bin), "rot.glb"))).message).toMatch(
      /nodes\[0\]\.rotation is \[0,0,0,0\]; expected a unit quaternion/,
    );
    const c = await base();
    c.json.asset.version = "1.0";
    expect((await rejection(parseGlb(packGlb(c.json, c.bin), "old.glb"))).message).toBe(
      'old.glb: asset.version is "1.0"; only glTF 2.x is supported',
    );
    const d = await base();
    d.json.meshes[0].primitives[0].mode = 0;
    const none = await rejection(parseGlb(packGlb(d.json, d.bin), "points.glb"));
    expect(none.code).toBe("NO_TRIANGLES");
    expect(none.message).toBe(
      "points.glb: scene 0 has no triangle primitives; see the warnings for what was skipped",
    );
  });

  it("loadGltfMesh names missing, directory and empty inputs", async () => {
    expect((await rejection(loadGltfMesh(join(tmp, "nope.glb")))).message).toBe(
      `${join(tmp, "nope.glb")}: no such file`,
    );
    mkdirSync(join(tmp, "dir.gltf"), { recursive: true });
    expect((await rejection(loadGltfMesh(join(tmp, "dir.gltf")))).message).toBe(
      `${join(tmp, "dir.gltf")}: is a directory, expected a file`,
    );
    writeFileSync(join(tmp, "empty.glb"), "");
    expect((await rejection(loadGltfMesh(join(tmp, "empty.glb")))).message).toBe(
      `${join(tmp, "empty.glb")}: is empty`,
    );
    if (process.getuid?.() !== 0) {
      writeFileSync(join(tmp, "locked.glb"), "x");
      chmodSync(join(tmp, "locked.glb"), 0);
      expect((await rejection(loadGltfMesh(join(tmp, "locked.glb")))).message).toMatch(
        /permission denied$/,
      );
    }
  });
});

describe("glTF/GLB input: robustness", () => {
  it("any single corrupted byte or mangled JSON field gives a mesh or a MeshwayError, nothing else", async () => {
    const tri = new SceneBuilder().floor(0, 0, 1, 1).build();
    const glb = await glbOf(sceneDoc(tri, { t: [1, 2, 3] }).doc);
    const others: string[] = [];
    const attempt = async (bytes: Uint8Array, what: string) => {
      try {
        await parseGlb(bytes, "fuzz.glb");
      } catch (e) {
        if (!(e instanceof MeshwayError) || /cannot be read as glTF/.test(e.message))
          others.push(`${what}: ${String(e)}`);
      }
    };
    for (let i = 0; i < glb.length; i++) {
      for (const v of [0x00, 0xff, 0x22, 0x31, 0x7d]) {
        const b = glb.slice();
        b[i] = v;
        await attempt(b, `byte ${i} = ${v}`);
      }
    }
    const { json, bin } = await jsonOf(sceneDoc(tri).doc);
    const junk = [null, -1, 1.5, 1e9, "x", [], {}, [0, 0], true];
    const visit = async (obj: GltfJson, path: string): Promise<void> => {
      for (const key of Object.keys(obj)) {
        const saved = obj[key];
        for (const j of [...junk, undefined]) {
          obj[key] = j;
          if (j === undefined) delete obj[key];
          await attempt(packGlb(json, bin), `${path}.${key} = ${JSON.stringify(j)}`);
        }
        obj[key] = saved;
        if (saved !== null && typeof saved === "object") await visit(saved, `${path}.${key}`);
      }
    };
    await visit(json, "json");
    expect(others).toEqual([]);
  });
});

describe("glTF/GLB input: external buffers stay beside the file", () => {
  it("refuses buffer URIs outside the glTF's directory, links leading out, and non-regular files", async () => {
    const dir = mkdtempSync(join(tmp, "ext-"));
    const level = join(dir, "level");
    mkdirSync(level);
    const { json, bin } = await jsonOf(sceneDoc(new SceneBuilder().floor(0, 0, 1, 1).build()).doc);
    writeFileSync(join(dir, "outside.bin"), bin);
    const load = async (uri: string) => {
      json.buffers![0]!.uri = uri;
      writeFileSync(join(level, "level.gltf"), JSON.stringify(json));
      return loadGltfMesh(join(level, "level.gltf"));
    };
    const file = join(level, "level.gltf");
    expect((await rejection(load("../outside.bin"))).message).toBe(
      `${file}: buffers[0].uri "../outside.bin" points outside the glTF's directory; only files beside it are read`,
    );
    expect((await rejection(load(join(dir, "outside.bin")))).message).toMatch(
      /points outside the glTF's directory/,
    );
    expect((await rejection(load("%2E%2E/outside.bin"))).message).toMatch(/points outside/);
    symlinkSync(join(dir, "outside.bin"), join(level, "link.bin"));
    expect((await rejection(load("link.bin"))).message).toMatch(
      /links outside the glTF's directory/,
    );
    mkdirSync(join(level, "sub.bin"));
    expect((await rejection(load("sub.bin"))).message).toMatch(/sub\.bin" is not a regular file$/);
    symlinkSync("/dev/zero", join(level, "zero.bin"));
    expect((await rejection(load("zero.bin"))).message).toMatch(/links outside|not a regular file/);
    // A buffer beside the file (or below it) still loads.
    writeFileSync(join(level, "level.bin"), bin);
    expect((await load("level.bin")).mesh.triangleCount).toBe(2);
  });
});
