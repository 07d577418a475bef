import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { MeshwayError } from "../../src/errors.js";
import { importDetourNavMesh } from "../../src/format/detour-import.js";
import { deserializeNavMesh, serializeNavMesh } from "../../src/format/navmesh-file.js";
import { loadNavMeshFile, saveNavMeshFile } from "../../src/node/navmesh-files.js";
import { type SaveFileSystem, writeFileAtomic } from "../../src/node/write-file-atomic.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { buildDetourNavMesh } from "../helpers/detour.js";
import { detourBuildsForSuite } from "../helpers/detour-suite.js";
import { navMeshFor, twoSquaresTile } from "../helpers/hand-tile.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { thrownError } from "../helpers/thrown.js";

let dir = "";
beforeAll(() => {
  dir = fs.mkdtempSync(join(tmpdir(), "meshway-navmesh-files-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

let fileNo = 0;
function freshDir(): string {
  const d = join(dir, `case-${fileNo++}`);
  fs.mkdirSync(d);
  return d;
}

function smallFile(areas = [63, 5]): Uint8Array {
  const nm = navMeshFor(4, 2);
  nm.addTile(twoSquaresTile({ areas }));
  return serializeNavMesh(nm, resolveConfig({ cellSize: 0.25 }));
}

/** A file system whose `name` call fails (after doing `partial` first, when given). */
function failing(name: keyof SaveFileSystem, partial?: (...args: never[]) => void): SaveFileSystem {
  const fail = (...args: never[]) => {
    partial?.(...args);
    const e = new Error(`EIO: simulated failure in ${name}`) as NodeJS.ErrnoException;
    e.code = "EIO";
    throw e;
  };
  return { ...(fs as unknown as SaveFileSystem), [name]: fail };
}

describe("writeFileAtomic", () => {
  it("is what the deprecated saveNavMeshFile name points at", () => {
    expect(saveNavMeshFile).toBe(writeFileAtomic);
  });

  it("writes any bytes, e.g. a PNG signature or JSON text", () => {
    const path = join(dir, "any.json");
    const text = new TextEncoder().encode('{"a":1}');
    writeFileAtomic(path, text);
    expect(new Uint8Array(fs.readFileSync(path))).toEqual(text);
  });

  const good = smallFile([63, 5]);
  const replacement = smallFile([1, 2]);

  it("writes the bytes, replacing an existing file, and leaves no temporary file", () => {
    const d = freshDir();
    const path = join(d, "scene.navmesh");
    writeFileAtomic(path, good);
    expect(new Uint8Array(fs.readFileSync(path))).toEqual(good);
    writeFileAtomic(path, replacement);
    expect(new Uint8Array(fs.readFileSync(path))).toEqual(replacement);
    expect(fs.readdirSync(d)).toEqual(["scene.navmesh"]);
  });

  it("keeps a replaced file's permission bits", () => {
    const d = freshDir();
    const path = join(d, "scene.navmesh");
    writeFileAtomic(path, good);
    fs.chmodSync(path, 0o640);
    writeFileAtomic(path, replacement);
    expect(fs.statSync(path).mode & 0o777).toBe(0o640);
  });

  it("leaves the old file intact and no temporary file when a write fails midway", () => {
    const d = freshDir();
    const path = join(d, "scene.navmesh");
    writeFileAtomic(path, good);
    // The first half reaches the temporary file, then the disk fails.
    const io = failing("writeSync", (fd: number, buf: Uint8Array) => {
      fs.writeSync(fd, buf, 0, buf.length >> 1);
    });
    const e = thrownError(() => writeFileAtomic(path, replacement, io));
    expect(e.message).toContain("simulated failure in writeSync");
    expect(new Uint8Array(fs.readFileSync(path))).toEqual(good);
    expect(fs.readdirSync(d)).toEqual(["scene.navmesh"]);
  });

  for (const step of ["fsyncSync", "closeSync", "renameSync", "fchmodSync"] as const) {
    it(`leaves the old file intact and no temporary file when ${step} fails`, () => {
      const d = freshDir();
      const path = join(d, "scene.navmesh");
      writeFileAtomic(path, good);
      const e = thrownError(() => writeFileAtomic(path, replacement, failing(step)));
      expect(e.message).toContain(`simulated failure in ${step}`);
      expect(new Uint8Array(fs.readFileSync(path))).toEqual(good);
      expect(fs.readdirSync(d)).toEqual(["scene.navmesh"]);
    });
  }

  it("refuses a bad bytes object before touching the disk", () => {
    const d = freshDir();
    const path = join(d, "scene.navmesh");
    writeFileAtomic(path, good);
    for (const bad of [new Uint8Array(0), [1, 2, 3], "MWNM", null]) {
      const e = thrownError(() => writeFileAtomic(path, bad as unknown as Uint8Array));
      expect(e).toBeInstanceOf(MeshwayError);
      expect((e as MeshwayError).code).toBe("INVALID_ARGUMENT");
    }
    expect(new Uint8Array(fs.readFileSync(path))).toEqual(good);
    expect(fs.readdirSync(d)).toEqual(["scene.navmesh"]);
  });

  it("fails without leftovers when the target is a directory or its folder is missing", () => {
    const d = freshDir();
    const target = join(d, "taken");
    fs.mkdirSync(target);
    fs.writeFileSync(join(target, "keep"), "x");
    expect(
      (thrownError(() => writeFileAtomic(target, good)) as NodeJS.ErrnoException).code,
    ).toMatch(/EISDIR|ENOTEMPTY|EEXIST|EPERM/);
    expect(fs.readdirSync(d)).toEqual(["taken"]);
    expect(fs.readdirSync(target)).toEqual(["keep"]);
    const missing = join(d, "no-such-folder", "scene.navmesh");
    expect((thrownError(() => writeFileAtomic(missing, good)) as NodeJS.ErrnoException).code).toBe(
      "ENOENT",
    );
    expect(fs.readdirSync(d)).toEqual(["taken"]);
  });
});

describe("loadNavMeshFile", () => {
  const builds = detourBuildsForSuite();

  it("loads a meshway file with its config; tile arrays view one buffer owned by the mesh", () => {
    const d = freshDir();
    const path = join(d, "small.navmesh");
    const bytes = smallFile();
    writeFileAtomic(path, bytes);
    const r = loadNavMeshFile(path);
    expect(r.format).toBe("meshway");
    expect(r.version).toBe(1);
    expect(r.config).toEqual(deserializeNavMesh(bytes).config);
    expect(r.navMesh.tiles).toEqual(deserializeNavMesh(bytes).navMesh.tiles);
    // A small file is read into Node's shared pool; the loader copies it out so the views
    // pin (and could transfer) only the file's own bytes.
    const buffer = r.navMesh.tiles[0]!.vertices.buffer;
    expect(buffer.byteLength).toBe(bytes.length);
    expect(r.navMesh.tiles[0]!.polyVerts.buffer).toBe(buffer);
  });

  it("detects a Detour export ('MSET') and imports it, with the same answers as the importer", () => {
    const build = buildDetourNavMesh(loadSharedMesh("nav_test"), resolveConfig(), {
      tileSize: 48,
    });
    builds.push(build);
    const d = freshDir();
    const path = join(d, "detour.bin");
    fs.writeFileSync(path, build.bytes);
    const r = loadNavMeshFile(path);
    expect(r.format).toBe("detour");
    expect(r.config).toBeNull();
    expect(r.version).toBe(1);
    const direct = importDetourNavMesh(build.bytes);
    expect(r.navMesh.tiles).toEqual(direct.tiles);
    const qa = new NavMeshQuery(direct);
    const qb = new NavMeshQuery(r.navMesh);
    const ext = [2, 4, 2];
    expect(qb.computePath([0, 0, 0], [20, 0, 10], { halfExtents: ext })).toEqual(
      qa.computePath([0, 0, 0], [20, 0, 10], { halfExtents: ext }),
    );
    // And it converts: Detour in, meshway file out, same tiles back.
    const out = join(d, "converted.navmesh");
    writeFileAtomic(out, serializeNavMesh(r.navMesh, null));
    const again = loadNavMeshFile(out);
    expect(again.format).toBe("meshway");
    expect(again.navMesh.tiles).toEqual(direct.tiles);
  });

  describe("rejects bad files with MeshwayError('INVALID_INPUT', '<path>: <what, where>')", () => {
    const d = () => freshDir();
    const expectInvalid = (path: string, pattern: RegExp) => {
      const e = thrownError(() => loadNavMeshFile(path));
      expect(e).toBeInstanceOf(MeshwayError);
      expect((e as MeshwayError).code).toBe("INVALID_INPUT");
      expect(e.message.startsWith(`${path}: `)).toBe(true);
      expect(e.message).toMatch(pattern);
    };
    const write = (name: string, bytes: Uint8Array | string) => {
      const path = join(d(), name);
      fs.writeFileSync(path, bytes);
      return path;
    };

    it("a missing file, a directory, an empty file", () => {
      expectInvalid(join(dir, "nope.navmesh"), /no such file$/);
      expectInvalid(d(), /is a directory/);
      expectInvalid(write("empty.navmesh", ""), /empty file/);
    });

    it("random bytes and a text file: bad magic naming both formats", () => {
      expectInvalid(
        write("random.navmesh", Uint8Array.from([7, 200, 3, 4, 5, 6, 7, 8])),
        /bad magic '\\x07\\xc8\\x03\\x04', expected 'MWNM' \(meshway .navmesh\) or 'MSET' \(Detour navmesh export\) at byte 0$/,
      );
      expectInvalid(write("scene.obj", "v 0 0 0\n"), /bad magic 'v 0 '/);
    });

    it("a flipped byte, a truncated file, a newer version", () => {
      const bytes = smallFile();
      const flipped = bytes.slice();
      flipped[bytes.length - 3]! ^= 0x10;
      expectInvalid(write("flipped.navmesh", flipped), /corrupted: payload checksum/);
      expectInvalid(write("cut.navmesh", bytes.subarray(0, 200)), /truncated/);
      expectInvalid(write("cut2.navmesh", bytes.subarray(0, 2)), /truncated/);
      const newer = bytes.slice();
      newer[4] = 9;
      expectInvalid(write("newer.navmesh", newer), /format version 9 is newer .*\(version 1\)/);
    });

    it("a truncated Detour export goes to the Detour reader", () => {
      const build = buildDetourNavMesh(loadSharedMesh("nav_test"), resolveConfig());
      builds.push(build);
      expectInvalid(write("cut.bin", build.bytes.subarray(0, 100)), /byte 8: tile count 1 needs/);
    });
  });
});
