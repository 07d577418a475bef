// Seed inputs for the fuzz targets, built once per process from code (nothing checked in):
// a small OBJ level, its GLB and data-URI .gltf (@gltf-transform/core), its .navmesh file, a
// tiled Detour export with an off-mesh connection (@recast-navigation), and navmeshes to query.
import { Document, NodeIO } from "@gltf-transform/core";
import { recastGeneratorConfig } from "../bench/generator-config.js";
import {
  buildNavMesh,
  deserializeNavMesh,
  importDetourNavMesh,
  parseObj,
  resolveConfig,
  serializeNavMesh,
} from "../dist/index.js";

/** Build config of the fixtures: binary-exact cells, small agent. */
export const FIXTURE_CONFIG = Object.freeze({
  cellSize: 0.25,
  cellHeight: 0.125,
  agentRadius: 0.5,
});

/**
 * OBJ text of a 20 × 20 floor with a box, a raised platform and a ramp up to it. Floors are
 * counter-clockwise seen from above (walkable); CRLF-free, one statement per line.
 */
export function levelObjText() {
  const lines = ["# meshway fuzz fixture", "o level"];
  let n = 0;
  const v = (x, y, z) => {
    lines.push(`v ${x} ${y} ${z}`);
    return ++n;
  };
  /** Quad a-b-c-d as two triangles (a, b, c), (a, c, d). */
  const quad = (a, b, c, d) => {
    const i = [a, b, c, d].map((p) => v(...p));
    lines.push(`f ${i[0]} ${i[1]} ${i[2]}`, `f ${i[0]} ${i[2]} ${i[3]}`);
  };
  const top = (x0, z0, x1, z1, y) => quad([x0, y, z0], [x0, y, z1], [x1, y, z1], [x1, y, z0]);
  const box = (x0, z0, x1, z1, y0, y1) => {
    top(x0, z0, x1, z1, y1);
    quad([x0, y0, z0], [x1, y0, z0], [x1, y1, z0], [x0, y1, z0]);
    quad([x1, y0, z0], [x1, y0, z1], [x1, y1, z1], [x1, y1, z0]);
    quad([x1, y0, z1], [x0, y0, z1], [x0, y1, z1], [x1, y1, z1]);
    quad([x0, y0, z1], [x0, y0, z0], [x0, y1, z0], [x0, y1, z1]);
  };
  top(0, 0, 20, 20, 0);
  box(8, 8, 11, 12, 0, 2);
  box(2, 14, 8, 19, 2.5, 3);
  // Ramp from the floor at x = 14 up to the platform's edge at x = 8.
  quad([14, 0, 15], [14, 0, 18], [8, 3, 18], [8, 3, 15]);
  // A face with a polygon of five vertices, fan-triangulated by the parser.
  const p = [
    [16, 0, 2],
    [16, 0, 4],
    [18, 0, 5],
    [19, 0, 3],
    [18, 0, 1],
  ].map((q) => v(...q));
  lines.push(`f ${p.join(" ")}`);
  return `${lines.join("\n")}\n`;
}

const SILENT = { debug() {}, info() {}, warn() {}, error() {} };

/** A glTF document of `mesh` under one translated node (the loader applies world transforms). */
function gltfDocument(mesh) {
  const doc = new Document().setLogger(SILENT);
  const buffer = doc.createBuffer("geometry");
  const pos = doc
    .createAccessor()
    .setType("VEC3")
    .setArray(Float32Array.from(mesh.positions))
    .setBuffer(buffer);
  const idx = doc
    .createAccessor()
    .setType("SCALAR")
    .setArray(Uint16Array.from(mesh.indices))
    .setBuffer(buffer);
  const prim = doc.createPrimitive().setAttribute("POSITION", pos).setIndices(idx);
  const node = doc
    .createNode("level")
    .setMesh(doc.createMesh("level").addPrimitive(prim))
    .setTranslation([1, 0, -2]);
  doc.getRoot().setDefaultScene(doc.createScene("scene").addChild(node));
  return doc;
}

/** A tiled Detour export of `mesh` with one off-mesh connection (recast-navigation's WASM). */
async function detourExport(mesh) {
  const core = await import("@recast-navigation/core");
  const generators = await import("@recast-navigation/generators");
  await core.init();
  const cfg = resolveConfig(FIXTURE_CONFIG);
  const result = generators.generateTiledNavMesh(
    mesh.positions,
    mesh.indices,
    {
      ...recastGeneratorConfig(cfg),
      tileSize: 24,
      offMeshConnections: [
        {
          startPosition: { x: 1, y: 0, z: 1 },
          endPosition: { x: 5, y: 3, z: 16 },
          radius: 0.5,
          bidirectional: true,
          area: 0,
          flags: 1,
        },
      ],
    },
    false,
  );
  if (!result.success) throw new Error(`fixture: Detour build failed: ${result.error}`);
  const bytes = core.exportNavMesh(result.navMesh);
  result.navMesh.destroy();
  return bytes;
}

let cached = null;

/**
 * Every fixture, built once: `{ objText, mesh, glb, gltfDataUri, navmeshFile, detourFile,
 * soloBytes }` where navmeshFile is a `.navmesh` of the solo build with an off-mesh
 * connection and detourFile the tiled Detour export. Fresh navmeshes for the query targets come
 * from these bytes (`freshNavMesh`), so a case may remove tiles without affecting the next.
 */
export function fixtures() {
  cached ??= (async () => {
    const objText = levelObjText();
    const mesh = parseObj(objText, "level.obj");
    const io = new NodeIO().setLogger(SILENT);
    const glb = await io.writeBinary(gltfDocument(mesh));
    const { json, resources } = await io.writeJSON(gltfDocument(mesh), { basename: "level" });
    for (const buffer of json.buffers ?? []) {
      const data = resources[buffer.uri];
      buffer.uri = `data:application/octet-stream;base64,${Buffer.from(data).toString("base64")}`;
    }
    const gltfDataUri = new TextEncoder().encode(JSON.stringify(json));
    const { navMesh } = buildNavMesh(mesh, FIXTURE_CONFIG);
    navMesh.addOffMeshConnection({
      start: [1, 0, 1],
      end: [5, 3, 16],
      radius: 0.5,
      bidirectional: true,
      area: 0,
      flags: 1,
      cost: 3,
      userId: 7,
    });
    const navmeshFile = serializeNavMesh(navMesh, resolveConfig(FIXTURE_CONFIG));
    const detourFile = await detourExport(mesh);
    // Check the seeds load before any mutation is blamed on the loaders.
    deserializeNavMesh(navmeshFile, "fixture.navmesh");
    importDetourNavMesh(detourFile, "fixture.bin");
    return { objText, mesh, glb, gltfDataUri, navmeshFile, detourFile };
  })();
  return cached;
}

/** A new NavMesh of fixture `kind` ("solo": meshway build; "tiled": the Detour import). */
export function freshNavMesh(f, kind) {
  return kind === "solo"
    ? deserializeNavMesh(f.navmeshFile, "fixture.navmesh").navMesh
    : importDetourNavMesh(f.detourFile, "fixture.bin");
}
