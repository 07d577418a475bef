import { MeshwayError, parseObj, type TriangleMesh } from "meshway";
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
 * A level from a file's bytes, by extension. OBJ today; GLB goes through the same path once
 * meshway/io has a platform-free GLB parser (the Node loader, meshway/node's loadGltfMesh,
 * reads files and so cannot run here).
 */
export function parseLevel(fileName: string, bytes: ArrayBuffer): Level {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".obj")) {
    return { name: fileName, mesh: parseObj(new TextDecoder().decode(bytes), fileName) };
  }
  if (lower.endsWith(".glb") || lower.endsWith(".gltf")) {
    throw new MeshwayError(
      "INVALID_INPUT",
      `${fileName}: glTF in the browser needs meshway/io's GLB parser (coming); open an OBJ for now`,
    );
  }
  throw new MeshwayError("INVALID_INPUT", `${fileName}: not an .obj or .glb file`);
}
