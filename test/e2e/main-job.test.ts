import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadNavMeshFile } from "../../src/node/navmesh-files.js";
import { decodeRgbaPng } from "../helpers/png.js";

// The README's main job: `npm start` on a fresh clone.
const golden = JSON.parse(readFileSync("test/golden/nav_test-png.json", "utf8")) as {
  width: number;
  height: number;
  pixelsSha256: string;
};

describe("npm start (the README's main job)", () => {
  it("builds the default scene, prints the summary and a path, writes the navmesh and the picture", () => {
    rmSync("out", { recursive: true, force: true });
    const r = spawnSync("npm", ["start", "--silent"], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/triangles in\s+1612/);
    expect(r.stdout).toMatch(/polygons\s+155/);
    expect(r.stdout).toMatch(/area \(XZ\)\s+\d+\.\d\d/);
    expect(r.stdout).toMatch(/rasterize\s+\d/);
    expect(r.stdout).toMatch(/^path: \d+ points over \d+ polygons, length \d+\.\d{3}$/m);

    const { navMesh } = loadNavMeshFile("out/nav_test.navmesh");
    expect(navMesh.tiles[0]!.polyCount).toBe(155);

    const png = decodeRgbaPng(readFileSync("out/nav_test.png"));
    const pixelsSha256 = createHash("sha256").update(png.pixels).digest("hex");
    // Refresh deliberately (and say why in the commit) if the picture is meant to change.
    expect({ width: png.width, height: png.height, pixelsSha256 }).toEqual(golden);
  });
});
