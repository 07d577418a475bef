import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Document, type Logger, NodeIO } from "@gltf-transform/core";
import {
  BufferAttribute,
  BufferGeometry,
  Group,
  InstancedMesh,
  Line,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  type Object3D,
  Points,
  Quaternion,
  Vector3,
} from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { afterAll, describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { loadGltfMesh } from "../../src/node/index.js";
import { getPositionsAndIndices } from "../../src/three/geometry.js";

const tmp = mkdtempSync(join(tmpdir(), "meshway-three-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Tri = number[];

/** Triangles as 9 coordinates each, every triangle rotated to start at its smallest vertex
 * (winding kept), sorted: equal scenes give equal lists whatever the vertex order. */
function triangles(m: { positions: ArrayLike<number>; indices: ArrayLike<number> }): Tri[] {
  const out: Tri[] = [];
  const key = (t: Tri) => t.map((v) => Math.round(v * 1e3));
  const less = (a: number[], b: number[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return 0;
  };
  for (let t = 0; t < m.indices.length; t += 3) {
    const vs = [0, 1, 2].map((k) => {
      const i = m.indices[t + k]! * 3;
      return [m.positions[i]!, m.positions[i + 1]!, m.positions[i + 2]!];
    });
    let first = 0;
    for (let k = 1; k < 3; k++) if (less(key(vs[k]!), key(vs[first]!)) < 0) first = k;
    out.push([...vs[first]!, ...vs[(first + 1) % 3]!, ...vs[(first + 2) % 3]!]);
  }
  return out.sort((a, b) => less(key(a), key(b)));
}

function expectSameTriangles(a: Tri[], b: Tri[], tol = 1e-6): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) {
    for (let k = 0; k < 9; k++) {
      const x = a[i]![k]!;
      const y = b[i]![k]!;
      if (Math.abs(x - y) > tol * Math.max(1, Math.abs(x))) {
        expect.fail(`triangle ${i} coordinate ${k}: ${x} vs ${y}`);
      }
    }
  }
}

/** y of each triangle's normal, cross(b − a, c − a).y. */
function normalYs(m: { positions: ArrayLike<number>; indices: ArrayLike<number> }): number[] {
  const p = m.positions;
  const out: number[] = [];
  for (let t = 0; t < m.indices.length; t += 3) {
    const a = m.indices[t]! * 3;
    const b = m.indices[t + 1]! * 3;
    const c = m.indices[t + 2]! * 3;
    out.push((p[b + 2]! - p[a + 2]!) * (p[c]! - p[a]!) - (p[b]! - p[a]!) * (p[c + 2]! - p[a + 2]!));
  }
  return out;
}

/** Up-facing triangle (0,0,0), (0,0,1), (1,0,0), indexed. */
function upTriangle(): BufferGeometry {
  const g = new BufferGeometry();
  g.setAttribute("position", new BufferAttribute(Float32Array.of(0, 0, 0, 0, 0, 1, 1, 0, 0), 3));
  g.setIndex([0, 1, 2]);
  return g;
}

const material = new MeshBasicMaterial();

describe("getPositionsAndIndices", () => {
  it("applies nested world matrices (T·R·S of every ancestor)", () => {
    const outer = new Group();
    outer.position.set(10, 0, 0);
    const inner = new Group();
    inner.position.set(0, 1, 0);
    inner.rotation.y = Math.PI / 2;
    inner.scale.setScalar(2);
    inner.add(new Mesh(upTriangle(), material));
    outer.add(inner);
    const got = getPositionsAndIndices(outer);
    // By hand: scale 2, turn 90° about +Y ((x, z) → (z, −x)), lift 1, shift 10 on x.
    expectSameTriangles(
      triangles(got),
      triangles({ positions: [10, 1, 0, 12, 1, 0, 10, 1, -2], indices: [0, 1, 2] }),
    );
    expect(normalYs(got)[0]).toBeGreaterThan(0);
  });

  it("keeps faces up under a mirroring transform (negative determinant)", () => {
    for (const s of [
      [-1, 1, 1],
      [1, 1, -1],
      [-2, 1, 3],
    ] as const) {
      const mesh = new Mesh(upTriangle(), material);
      mesh.scale.set(s[0], s[1], s[2]);
      const got = getPositionsAndIndices(mesh);
      expect(normalYs(got)[0]).toBeGreaterThan(0);
    }
    const mirrored = new Mesh(upTriangle(), material);
    mirrored.scale.set(-1, 1, 1);
    // (0,0,0), (0,0,1), (−1,0,0) wound back up: (0,0,0), (−1,0,0), (0,0,1).
    expectSameTriangles(
      triangles(getPositionsAndIndices(mirrored)),
      triangles({ positions: [0, 0, 0, -1, 0, 0, 0, 0, 1], indices: [0, 1, 2] }),
    );
  });

  it("reads non-indexed geometry like the same geometry indexed", () => {
    const g = new BufferGeometry();
    g.setAttribute(
      "position",
      new BufferAttribute(Float32Array.of(0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 2, 0.5, 0), 3),
    );
    g.setIndex([0, 1, 2, 0, 2, 3, 3, 2, 4]);
    const parent = new Group();
    parent.rotation.set(0.3, 0.7, -0.2);
    parent.position.set(-3, 2, 5);
    const indexed = new Mesh(g, material);
    const flat = new Mesh(g.toNonIndexed(), material);
    const a = new Group();
    a.add(indexed);
    parent.add(a);
    const got = getPositionsAndIndices(parent);
    a.remove(indexed);
    a.add(flat);
    const gotFlat = getPositionsAndIndices(parent);
    expect(gotFlat.indices.length).toBe(9);
    expectSameTriangles(triangles(gotFlat), triangles(got));
  });

  it("takes only the groups three.js draws: visible materials, inside the draw range", () => {
    const g = new BufferGeometry();
    const p: number[] = [];
    for (let t = 0; t < 4; t++) p.push(t * 2, 0, 0, t * 2, 0, 1, t * 2 + 1, 0, 0);
    g.setAttribute("position", new BufferAttribute(Float32Array.from(p), 3));
    g.setIndex([...Array(12).keys()]);
    g.addGroup(0, 3, 0); // triangle 0
    g.addGroup(3, 3, 1); // triangle 1: invisible material
    g.addGroup(9, 3, 0); // triangle 3; triangle 2 is in no group
    const hidden = new MeshBasicMaterial({ visible: false });
    const mesh = new Mesh(g, [material, hidden]);
    const xs = (m: { positions: Float32Array; indices: Uint32Array }) =>
      Array.from(m.indices)
        .filter((_, i) => i % 3 === 0)
        .map((i) => m.positions[i * 3]!);
    expect(xs(getPositionsAndIndices(mesh))).toEqual([0, 6]);
    g.setDrawRange(0, 6);
    expect(xs(getPositionsAndIndices(mesh))).toEqual([0]);
    // A single material: groups do not select, the draw range does.
    g.setDrawRange(3, 6);
    expect(xs(getPositionsAndIndices(new Mesh(g, material)))).toEqual([2, 4]);
  });

  it("expands every instance of an InstancedMesh (mirrored instances wound up)", () => {
    const inst = new InstancedMesh(upTriangle(), material, 4);
    const m = new Matrix4();
    inst.setMatrixAt(0, m.makeTranslation(0, 0, 0));
    inst.setMatrixAt(1, m.makeTranslation(5, 0, 0));
    inst.setMatrixAt(2, m.makeTranslation(0, 0, 5));
    inst.setMatrixAt(3, m.compose(new Vector3(0, 3, 0), new Quaternion(), new Vector3(-1, 1, 1)));
    const parent = new Group();
    parent.position.set(0, 1, 0);
    parent.add(inst);
    const got = getPositionsAndIndices(parent);
    expect(got.indices.length).toBe(12);
    expect(normalYs(got).every((n) => n > 0)).toBe(true);
    expectSameTriangles(
      triangles(got),
      triangles({
        positions: [
          ...[0, 1, 0, 0, 1, 1, 1, 1, 0],
          ...[5, 1, 0, 5, 1, 1, 6, 1, 0],
          ...[0, 1, 5, 0, 1, 6, 1, 1, 5],
          ...[0, 4, 0, -1, 4, 0, 0, 4, 1],
        ],
        indices: [...Array(12).keys()],
      }),
    );
    inst.count = 2;
    expect(getPositionsAndIndices(parent).indices.length).toBe(6);
  });

  it("skips invisible objects, hidden parents and non-meshes; counts an object once", () => {
    const root = new Group();
    const shown = new Mesh(upTriangle(), material);
    const hiddenMesh = new Mesh(upTriangle(), material);
    hiddenMesh.visible = false;
    const hiddenGroup = new Group();
    hiddenGroup.visible = false;
    const underHidden = new Mesh(upTriangle(), material);
    hiddenGroup.add(underHidden);
    const line = new Line(upTriangle());
    const points = new Points(upTriangle());
    root.add(shown, hiddenMesh, hiddenGroup, line, points);
    expect(getPositionsAndIndices(root).indices.length).toBe(3);
    expect(getPositionsAndIndices([root, shown, root]).indices.length).toBe(3);
    expect(getPositionsAndIndices(underHidden).indices.length).toBe(0);
    expect(getPositionsAndIndices(root, { includeInvisible: true }).indices.length).toBe(9);
    expect(getPositionsAndIndices(root, { filter: (m) => m !== shown }).indices.length).toBe(0);
    expect(() => getPositionsAndIndices([{} as Object3D])).toThrow(MeshwayError);
  });

  it("gives the same triangles as meshway's glTF loader on the same level", async () => {
    // One GLB: nested transforms, a mirrored node, an indexed and a non-indexed primitive.
    const SILENT = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;
    const doc = new Document().setLogger(SILENT);
    const buffer = doc.createBuffer();
    const floor = Float32Array.of(0, 0, 0, 0, 0, 4, 4, 0, 4, 4, 0, 0, 6, 1, 2);
    const prim = (indexed: boolean) => {
      const pr = doc
        .createPrimitive()
        .setAttribute(
          "POSITION",
          doc.createAccessor().setType("VEC3").setArray(floor.slice()).setBuffer(buffer),
        );
      if (indexed) {
        pr.setIndices(
          doc
            .createAccessor()
            .setType("SCALAR")
            .setArray(Uint32Array.of(0, 1, 2, 0, 2, 3, 3, 2, 4))
            .setBuffer(buffer),
        );
      }
      return pr;
    };
    const indexedMesh = doc.createMesh("indexed").addPrimitive(prim(true));
    // Non-indexed: the first three vertices form one triangle.
    const flatMesh = doc.createMesh("flat").addPrimitive(prim(false));
    const q = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), 0.6);
    const root = doc
      .createNode("root")
      .setTranslation([5, -1, 2])
      .setRotation([q.x, q.y, q.z, q.w])
      .setScale([1.5, 1, 1.5]);
    const mirrored = doc
      .createNode("mirrored")
      .setTranslation([0, 2, 0])
      .setScale([-1, 1, 1])
      .setMesh(indexedMesh);
    const tilted = doc
      .createNode("tilted")
      .setRotation([Math.sin(0.05), 0, 0, Math.cos(0.05)])
      .setTranslation([-8, 0, 0])
      .setMesh(flatMesh);
    root.addChild(mirrored).addChild(tilted);
    const plain = doc.createNode("plain").setMesh(indexedMesh).setTranslation([0, 0, -10]);
    doc.getRoot().setDefaultScene(doc.createScene().addChild(root).addChild(plain));
    const glb = await new NodeIO().setLogger(SILENT).writeBinary(doc);
    const path = join(tmp, "level.glb");
    writeFileSync(path, glb);
    const fromMeshway = (await loadGltfMesh(path)).mesh;

    const gltf = await new GLTFLoader().parseAsync(
      glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer,
      "",
    );
    const fromThree = getPositionsAndIndices(gltf.scene);
    expect(fromThree.indices.length).toBe(fromMeshway.indices.length);
    expect(fromThree.indices.length).toBe((3 + 3 + 1) * 3);
    expectSameTriangles(triangles(fromThree), triangles(fromMeshway));
    expect(normalYs(fromThree).filter((n) => n < 0)).toEqual([]);
  });

  it("feeds buildNavMesh directly", () => {
    const g = new BufferGeometry();
    g.setAttribute(
      "position",
      new BufferAttribute(Float32Array.of(0, 0, 0, 0, 0, 10, 10, 0, 10, 10, 0, 0), 3),
    );
    g.setIndex([0, 1, 2, 0, 2, 3]);
    const floor = new Mesh(g, material);
    floor.position.set(3, 1, 3);
    const { navMesh } = buildNavMesh(getPositionsAndIndices(floor), {});
    expect(navMesh.tiles[0]!.polyCount).toBeGreaterThan(0);
    expect(navMesh.bmin[0]).toBeGreaterThanOrEqual(3);
    expect(navMesh.bmax[2]).toBeLessThanOrEqual(13);
    expect(navMesh.bmin[1]).toBeCloseTo(1, 5);
  });
});
