import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { readNavMeshBytes } from "../../src/format/read.js";
import { parseObjPolygons } from "../../src/io/obj-polygons.js";
import { validateNavMesh } from "../../src/navmesh/validate.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { authoredLevel } from "../helpers/authored-level.js";

const dir = mkdtempSync(join(tmpdir(), "meshway-import-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function levelObj(): string {
  const { vertices, polygons } = authoredLevel();
  const lines = ["# Blender-style export: a face per polygon", "o NavMesh"];
  for (let i = 0; i < vertices.length; i += 3)
    lines.push(`v ${vertices[i]} ${vertices[i + 1]} ${vertices[i + 2]}`);
  lines.push("vn 0 1 0");
  for (const f of Array.from(polygons))
    lines.push(`f ${Array.from(f, (v) => `${v + 1}//1`).join(" ")}`);
  return `${lines.join("\n")}\n`;
}

/** The same level as a glTF would carry it: triangles (fans of the faces), one buffer. */
function levelGltf(): string {
  const { vertices, polygons } = authoredLevel();
  const idx: number[] = [];
  for (const f of Array.from(polygons))
    for (let i = 1; i + 1 < f.length; i++) idx.push(f[0]!, f[i]!, f[i + 1]!);
  const pos = new Float32Array(Array.from(vertices));
  const ind = new Uint32Array(idx);
  const bytes = new Uint8Array(pos.byteLength + ind.byteLength);
  bytes.set(new Uint8Array(pos.buffer), 0);
  bytes.set(new Uint8Array(ind.buffer), pos.byteLength);
  const min = [0, 1, 2].map((k) => Math.min(...Array.from(pos).filter((_, i) => i % 3 === k)));
  const max = [0, 1, 2].map((k) => Math.max(...Array.from(pos).filter((_, i) => i % 3 === k)));
  return JSON.stringify({
    asset: { version: "2.0", generator: "Khronos glTF Blender I/O" },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: "NavMesh" }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
    buffers: [
      {
        byteLength: bytes.length,
        uri: `data:application/octet-stream;base64,${Buffer.from(bytes).toString("base64")}`,
      },
    ],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: pos.byteLength },
      { buffer: 0, byteOffset: pos.byteLength, byteLength: ind.byteLength },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: pos.length / 3, type: "VEC3", min, max },
      { bufferView: 1, componentType: 5125, count: ind.length, type: "SCALAR" },
    ],
  });
}

async function run(args: string[]) {
  let out = "";
  let err = "";
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

describe("meshway import-polygons", () => {
  it("parseObjPolygons keeps faces as polygons", () => {
    const { vertices, polygons } = parseObjPolygons(
      "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1/1 2/2 3/3 -1\n",
    );
    expect(vertices.length).toBe(12);
    expect(polygons).toEqual([[0, 1, 2, 3]]);
    expect(() => parseObjPolygons("v 0 0 0\nf 1 2 3\n", "x.obj")).toThrow(
      /x\.obj:2: face index 2 exceeds/,
    );
  });

  it("turns an authored OBJ into a valid .navmesh a path runs on", async () => {
    const obj = join(dir, "level-navmesh.obj");
    writeFileSync(obj, levelObj());
    const out = join(dir, "level.navmesh");
    const r = await run(["import-polygons", obj, "-o", out, "--tile-size", "3", "--json"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.out);
    expect(summary).toMatchObject({ welded: 6, tJunctions: 1, splitFaces: 2, droppedFaces: [] });
    const { navMesh } = readNavMeshBytes(new Uint8Array(readFileSync(out)), out);
    expect(validateNavMesh(navMesh).ok).toBe(true);
    expect(new NavMeshQuery(navMesh).computePath([0.5, 0, 3.5], [5.5, 0, 0.5]).status).toBe(
      "complete",
    );
  });

  it("turns an authored glTF (triangles) into convex polygons again", async () => {
    const gltf = join(dir, "level-navmesh.gltf");
    writeFileSync(gltf, levelGltf());
    const out = join(dir, "level-gltf.navmesh");
    const r = await run(["import-polygons", gltf, "-o", out, "--json"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.out);
    // 14 triangles merge back to few polygons: L (2 convex pieces, T-junction vertex kept),
    // two quads, floor + ramp, octagon (2 pieces of at most 6 corners).
    expect(summary.polygons).toBeLessThanOrEqual(10);
    const { navMesh } = readNavMeshBytes(new Uint8Array(readFileSync(out)), out);
    expect(validateNavMesh(navMesh).ok).toBe(true);
    const q = new NavMeshQuery(navMesh);
    expect(q.computePath([0.5, 0, 3.5], [5.5, 0, 0.5]).status).toBe("complete");
    expect(q.computePath([10.5, 0, 1.5], [13.5, 0.75, 0.5]).status).toBe("complete");
  });

  it("--keep-concave refuses the concave face, naming it (exit 1)", async () => {
    const obj = join(dir, "concave.obj");
    writeFileSync(obj, levelObj());
    const r = await run(["import-polygons", obj, "-o", join(dir, "x.navmesh"), "--keep-concave"]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/concave\.obj: navMeshFromPolygons: 1 concave face\(s\).*polygon 0/);
  });

  it("usage errors exit 2", async () => {
    expect((await run(["import-polygons"])).code).toBe(2);
    expect((await run(["import-polygons", "a.obj", "-o", "b.navmesh", "--weld", "-1"])).code).toBe(
      2,
    );
  });
});

describe("meshway export --format detour", () => {
  it("writes Detour bytes that load back", async () => {
    const obj = join(dir, "for-detour.obj");
    writeFileSync(obj, levelObj());
    const nav = join(dir, "for-detour.navmesh");
    expect((await run(["import-polygons", obj, "-o", nav])).code).toBe(0);
    const bin = join(dir, "level.bin");
    const r = await run(["export", nav, "--format", "detour", "-o", bin]);
    expect(r.code).toBe(0);
    const bytes = new Uint8Array(readFileSync(bin));
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe("TESM"); // 'MSET' little-endian
    const { navMesh, format } = readNavMeshBytes(bytes, bin);
    expect(format).toBe("detour");
    expect(validateNavMesh(navMesh).ok).toBe(true);
    expect((await run(["export", nav, "--format", "detour"])).code).toBe(2);
  });
});
