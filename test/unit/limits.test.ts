import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { crc32 } from "../../src/format/crc32.js";
import { deserializeNavMesh, serializeNavMesh } from "../../src/format/navmesh-file.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { type SaveFileSystem, writeFileAtomic } from "../../src/node/write-file-atomic.js";
import { navMeshFor, twoSquaresTile } from "../helpers/hand-tile.js";
import { SceneBuilder } from "../helpers/scenes.js";
import { thrownError, thrownMeshwayError } from "../helpers/thrown.js";

// Resource limits on untrusted input: sizes are computed from the input's own numbers and
// checked before anything that size is allocated, so a hostile file or level cannot make
// meshway reserve gigabytes (a RangeError or an out-of-memory crash would be the symptom).

describe("the build refuses an oversized voxel grid before allocating", () => {
  it("a tall grid (few columns, 10^8 height layers): GRID_TOO_LARGE with the computed height", () => {
    // A 1 × 1 floor and a thin wall up to y = 10^6: 100000001 layers, past a span's 16 bits.
    const mesh = new SceneBuilder().floor(0, 0, 1, 1).build();
    const positions = Float32Array.from([...mesh.positions, 0, 0, 0, 0, 1e6, 0, 0.001, 0, 0]);
    const n = mesh.positions.length / 3;
    const indices = Uint32Array.from([...mesh.indices, n, n + 1, n + 2]);
    const e = thrownMeshwayError(() =>
      buildNavMesh({ positions, indices }, { cellSize: 0.25, cellHeight: 0.01 }),
    );
    expect(e.code).toBe("GRID_TOO_LARGE");
    expect(e.message).toBe(
      "grid is 100000001 cells tall (cellHeight 0.01), more than the 65535 a span's height holds; use a larger cellHeight",
    );
  });

  it("coordinates near the float32 limit: refused by the 16-bit grid side, not allocated", () => {
    const positions = Float32Array.from([-3e38, 0, -3e38, -3e38, 0, 3e38, 3e38, 0, 3e38]);
    const e = thrownMeshwayError(() => buildNavMesh({ positions, indices: [0, 1, 2] }));
    expect(e.code).toBe("GRID_TOO_LARGE");
    expect(e.message).toMatch(
      /^grid of 2\.0+\d*e\+39 × 2\.0+\d*e\+39 columns \(cellSize 0\.3\) exceeds 65534 cells per side/,
    );
  });

  it("maxVoxels is the configurable cap on columns: the same wide scene fails under it and builds above it", () => {
    // 40 × 40 columns, 1001 layers: only the 1600 columns (and the spans) count.
    const mesh = new SceneBuilder().floor(0, 0, 10, 10).box(5, 0, 5, 1, 200, 1).build();
    const cfg = { cellSize: 0.25, cellHeight: 0.2 };
    const e = thrownMeshwayError(() => buildNavMesh(mesh, { ...cfg, maxVoxels: 1599 }));
    expect(e.message).toContain("40 × 40 = 1600 columns");
    expect(buildNavMesh(mesh, { ...cfg, maxVoxels: 5000 }).stats.polygons).toBeGreaterThan(0);
  });
});

/** A one-tile navmesh file with an off-mesh connection, and a resealer for edited copies. */
function smallFile(): Uint8Array {
  const nm = navMeshFor(4, 2);
  nm.addTile(twoSquaresTile());
  nm.addOffMeshConnection({
    start: [1, 0, 1],
    end: [3, 0, 1],
    radius: 0.5,
    bidirectional: true,
    area: 0,
    flags: 1,
  });
  return serializeNavMesh(nm, resolveConfig({}));
}

/** Writes both checksums again, so the edit reaches the structural checks. */
function resealed(bytes: Uint8Array, edit: (dv: DataView) => void): Uint8Array {
  const b = bytes.slice();
  const dv = new DataView(b.buffer);
  edit(dv);
  dv.setUint32(120, crc32(b, 128, b.length), true);
  dv.setUint32(124, crc32(b, 0, 124), true);
  return b;
}

describe("a .navmesh file's counts are checked against its length before allocating", () => {
  const file = smallFile();
  const dv = new DataView(file.buffer);
  const tileAt = 128 + Math.ceil(dv.getUint32(8, true) / 8) * 8;
  const refused = (b: Uint8Array) => thrownMeshwayError(() => deserializeNavMesh(b, "f")).message;

  it("header tile and off-mesh counts larger than the payload can hold", () => {
    expect(refused(resealed(file, (d) => d.setUint32(12, 0xfffff, true)))).toMatch(
      /payload of \d+ bytes cannot hold a \d+-byte config, 1048575 tiles and 1 off-mesh connections \(at least 92\d+ bytes\) at byte 24$/,
    );
    expect(refused(resealed(file, (d) => d.setUint32(12, 0xffffffff, true)))).toMatch(
      /4294967295 tiles, a navmesh holds fewer than 1048576 at byte 12$/,
    );
    expect(refused(resealed(file, (d) => d.setUint32(16, 0xfffff, true)))).toMatch(
      /cannot hold .* 1048575 off-mesh connections/,
    );
    // A payload length beyond the file: truncated, whatever the counts.
    expect(refused(resealed(file, (d) => d.setUint32(28, 1, true)))).toMatch(/^f: truncated: /);
  });

  it("tile counts worth gigabytes, whether or not the block length agrees with them", () => {
    // Counts and block length disagree.
    expect(refused(resealed(file, (d) => d.setUint32(tileAt + 16, 0x3fffffff, true)))).toMatch(
      /tile 0: block length \d+ does not match its counts \(1073741823 vertices.* need \d+ bytes\)/,
    );
    // Counts and block length agree (a 4 GB tile claimed by a 1 kB file): runs past the file.
    const big = resealed(file, (d) => {
      d.setUint32(tileAt + 16, 0x0fffffff, true); // vertices: 3 GB of floats
      d.setUint32(tileAt + 32, 0, true); // no BV nodes, keeps the layout arithmetic simple
    });
    const layout = refused(big).match(/need (\d+) bytes/);
    expect(layout).not.toBeNull();
    const consistent = resealed(big, (d) => d.setUint32(tileAt, Number(layout![1]), true));
    expect(refused(consistent)).toMatch(/tile 0: block of \d+ bytes runs past the tile section/);
  });
});

describe("saving never leaves a half-written or clobbered file", () => {
  const dir = fs.mkdtempSync(join(tmpdir(), "meshway-limits-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const good = smallFile();

  it("an unwritable directory (the temporary file cannot be created): old file intact, nothing added", () => {
    const path = join(dir, "keep.navmesh");
    writeFileAtomic(path, good);
    const denied: SaveFileSystem = {
      ...(fs as unknown as SaveFileSystem),
      openSync: () => {
        const e = new Error("EACCES: permission denied (simulated)") as NodeJS.ErrnoException;
        e.code = "EACCES";
        throw e;
      },
    };
    expect(
      (
        thrownError(() =>
          writeFileAtomic(path, new Uint8Array(64), denied),
        ) as NodeJS.ErrnoException
      ).code,
    ).toBe("EACCES");
    expect(new Uint8Array(fs.readFileSync(path))).toEqual(good);
    expect(fs.readdirSync(dir)).toEqual(["keep.navmesh"]);
  });

  it("serialization that throws (an invalid tile) never reaches the disk", () => {
    const path = join(dir, "keep.navmesh");
    const nm = deserializeNavMesh(good.slice()).navMesh; // its arrays view the copy
    nm.tiles[0]!.polyVertCount[0] = 99; // more vertices than maxVertsPerPoly: refused
    const e = thrownMeshwayError(() => writeFileAtomic(path, serializeNavMesh(nm, null)));
    expect(e.code).toBe("INVALID_ARGUMENT");
    expect(new Uint8Array(fs.readFileSync(path))).toEqual(good);
    expect(fs.readdirSync(dir)).toEqual(["keep.navmesh"]);
  });
});
