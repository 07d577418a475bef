import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { serializeNavMesh } from "../../src/format/navmesh-file.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { loadSharedMesh, SHARED_MESH_NAMES, sharedMeshPath } from "../helpers/meshes.js";

// Golden SHA-256 of the whole `.navmesh` file of each shared mesh's default build: header,
// stored config and tile blocks, so a format change shows here even when the build does not.
// Refresh only deliberately, with a note on why: `node scripts/refresh-golden-files.mjs`.
const golden: Record<string, { sha256: string; bytes: number }> = JSON.parse(
  readFileSync("test/golden/navmesh-file-hashes.json", "utf8"),
);
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const dir = mkdtempSync(join(tmpdir(), "meshway-golden-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("golden .navmesh files", () => {
  it.each(SHARED_MESH_NAMES)("%s serializes to the checked-in file bytes, twice", (name) => {
    const build = () =>
      serializeNavMesh(buildNavMesh(loadSharedMesh(name)).navMesh, resolveConfig({}));
    const a = build();
    const b = build();
    expect({ sha256: sha256(a), bytes: a.length }).toEqual(golden[name]);
    expect(sha256(b)).toBe(sha256(a));
  });

  it("meshway build writes the same bytes for nav_test (the CLI's output file)", () => {
    const out = join(dir, "nav_test.navmesh");
    const r = spawnSync(
      process.execPath,
      ["bin/meshway.js", "build", sharedMeshPath("nav_test"), "-o", out, "--quiet"],
      { encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(sha256(readFileSync(out))).toBe(golden.nav_test!.sha256);
  });

  it.each(SHARED_MESH_NAMES)(
    "%s tiled (tile size 32) writes the checked-in bytes on 1 and 2 threads",
    (name) => {
      for (const threads of ["1", "2"]) {
        const out = join(dir, `${name}-tiled-${threads}.navmesh`);
        const r = spawnSync(
          process.execPath,
          ["bin/meshway.js", "build", sharedMeshPath(name), "-o", out, "--quiet"].concat([
            "--tile-size",
            "32",
            "--threads",
            threads,
          ]),
          { encoding: "utf8" },
        );
        expect(r.status, r.stderr).toBe(0);
        const bytes = readFileSync(out);
        expect({ sha256: sha256(bytes), bytes: bytes.length }).toEqual(golden[`${name}@tile32`]);
      }
    },
  );
});
