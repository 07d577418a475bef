import { MeshwayError, parseObj, type TriangleMesh } from "meshway";
import { parseGlb, parseGltf } from "meshway/io";
import dungeonUrl from "../../test/fixtures/meshes/dungeon.obj?url";
import navTestUrl from "../../test/fixtures/meshes/nav_test.obj?url";
import undulatingUrl from "../../test/fixtures/meshes/undulating.obj?url";

/** The bundled demo levels (Recast's demo meshes), first is the default. */
export const DEMO_LEVELS: Record<string, string> = {
  nav_test: navTestUrl,
  dungeon: dungeonUrl,
  undulating: undulatingUrl,
};

export interface Level {
  name: string;
  mesh: TriangleMesh;
}

/** A demo level by name, fetched from beside the page. */
export async function loadDemoLevel(name: string): Promise<Level> {
  const url = DEMO_LEVELS[name];
  if (url === undefined) throw new MeshwayError("INVALID_ARGUMENT", `no demo level "${name}"`);
  const res = await fetch(url);
  if (!res.ok) throw new MeshwayError("INVALID_INPUT", `${name}.obj: HTTP ${res.status}`);
  return parseLevel(`${name}.obj`, await res.arrayBuffer());
}

/**
 * A level from a file's bytes, by extension: OBJ, GLB, or a self-contained .gltf (buffers
 * as data: URIs; a dropped .gltf cannot reach the files beside it, so external buffers are
 * refused by name).
 */
export async function parseLevel(fileName: string, bytes: ArrayBuffer): Promise<Level> {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".obj")) {
    return { name: fileName, mesh: parseObj(new TextDecoder().decode(bytes), fileName) };
  }
  if (lower.endsWith(".glb")) {
    return { name: fileName, mesh: (await parseGlb(bytes, { source: fileName })).mesh };
  }
  if (lower.endsWith(".gltf")) {
    return {
      name: fileName,
      mesh: (await parseGltf(new Uint8Array(bytes), null, { source: fileName })).mesh,
    };
  }
  throw new MeshwayError("INVALID_INPUT", `${fileName}: not an .obj, .glb or .gltf file`);
}
