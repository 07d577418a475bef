/**
 * glTF fixtures written from the shared OBJ meshes (with @gltf-transform/core) into a folder,
 * for comparing loaders (meshway/node's files, meshway/io's bytes, in Node and in a browser):
 * a GLB, a .gltf with an external .bin, a .gltf with a data-URI buffer, and a GLB with nested,
 * mirrored node transforms. Each file is small enough to parse in well under a second.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Document, Format, type Logger, NodeIO } from "@gltf-transform/core";
import type { TriangleMesh } from "../../src/input.js";
import { loadSharedMesh } from "./meshes.js";

const SILENT = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;

function docOf(
  meshes: { mesh: TriangleMesh; t?: [number, number, number]; s?: [number, number, number] }[],
): Document {
  const doc = new Document().setLogger(SILENT);
  const buffer = doc.createBuffer();
  const scene = doc.createScene();
  let parent = null as ReturnType<Document["createNode"]> | null;
  meshes.forEach(({ mesh, t, s }, i) => {
    const pos = doc
      .createAccessor()
      .setType("VEC3")
      .setArray(Float32Array.from(mesh.positions))
      .setBuffer(buffer);
    const ix = doc
      .createAccessor()
      .setType("SCALAR")
      .setArray(Uint32Array.from(mesh.indices))
      .setBuffer(buffer);
    const prim = doc.createPrimitive().setAttribute("POSITION", pos).setIndices(ix);
    const node = doc.createNode(`n${i}`).setMesh(doc.createMesh(`m${i}`).addPrimitive(prim));
    if (t) node.setTranslation(t);
    if (s) node.setScale(s);
    // Each node a child of the one before: transforms compose down the chain.
    if (parent) parent.addChild(node);
    else scene.addChild(node);
    parent = node;
  });
  doc.getRoot().setDefaultScene(scene);
  return doc;
}

/** The fixture files' names, relative to the folder. */
export const GLTF_FIXTURES = [
  "dungeon.glb",
  "nav_test.gltf",
  "undulating.gltf",
  "nested.glb",
] as const;

/** Writes the fixtures into `dir` (created); nav_test.gltf's buffer is "nav test.bin". */
export async function writeGltfFixtures(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const io = new NodeIO().setLogger(SILENT);
  writeFileSync(
    join(dir, "dungeon.glb"),
    await io.writeBinary(docOf([{ mesh: loadSharedMesh("dungeon") }])),
  );

  // External buffer, with a space in its name (the URI percent-encodes it).
  const nav = await io.writeJSON(docOf([{ mesh: loadSharedMesh("nav_test") }]), {
    format: Format.GLTF,
  });
  const bin = Object.values(nav.resources)[0]!;
  nav.json.buffers![0]!.uri = "nav%20test.bin";
  writeFileSync(join(dir, "nav_test.gltf"), JSON.stringify(nav.json));
  writeFileSync(join(dir, "nav test.bin"), bin);

  const und = await io.writeJSON(docOf([{ mesh: loadSharedMesh("undulating") }]), {
    format: Format.GLTF,
  });
  const ubin = Object.values(und.resources)[0]!;
  und.json.buffers![0]!.uri =
    `data:application/octet-stream;base64,${Buffer.from(ubin).toString("base64")}`;
  writeFileSync(join(dir, "undulating.gltf"), JSON.stringify(und.json));

  const small = loadSharedMesh("nav_test");
  const nested = docOf([
    { mesh: small, t: [10, -2, 5], s: [2, 2, 2] },
    { mesh: small, t: [1, 2, 3], s: [-1, 0.5, 1.5] }, // mirrored: winding flipped back
  ]);
  writeFileSync(join(dir, "nested.glb"), await io.writeBinary(nested));
}
