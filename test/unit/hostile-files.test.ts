// Issue 19 part B, the file items: what a hostile file or path did, each a regression test
// named after what broke (B6 glTF amplification, B7 buffer path race, B8 devices and FIFOs,
// B12 the string limit, B18 signals in the save window, B19 output paths, B21 small ones).
import { spawnSync } from "node:child_process";
import {
  closeSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { parseObj, parseObjBytes } from "../../src/io/obj.js";
import { describeFsError } from "../../src/node/errno.js";
import { loadGltfMesh, parseGlb } from "../../src/node/gltf/index.js";
import { loadNavMeshFile } from "../../src/node/navmesh-files.js";
import { readRegularFile, readRegularFileChunks } from "../../src/node/regular-file.js";
import { writeFileAtomic } from "../../src/node/write-file-atomic.js";

const dir = mkdtempSync(join(tmpdir(), "meshway-hostile-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => {
  const d = join(dir, `case${n++}`);
  mkdirSync(d);
  return d;
};

function thrown(run: () => unknown): MeshwayError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(MeshwayError);
    return e as MeshwayError;
  }
  throw new Error("expected a MeshwayError, nothing was thrown");
}

async function rejected(run: () => Promise<unknown>): Promise<MeshwayError> {
  try {
    await run();
  } catch (e) {
    expect(e).toBeInstanceOf(MeshwayError);
    return e as MeshwayError;
  }
  throw new Error("expected a MeshwayError, nothing was thrown");
}

function fifo(d: string, name: string): string | null {
  const path = join(d, name);
  return spawnSync("mkfifo", [path]).status === 0 ? path : null;
}

function sparse(path: string, bytes: number, head: Uint8Array = new Uint8Array(0)): string {
  writeFileSync(path, head);
  const fd = openSync(path, "r+");
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return path;
}

/** A GLB of `json` (or JSON text) and an optional BIN chunk. */
function glb(json: unknown, bin?: Uint8Array): Uint8Array {
  const pad = (b: Uint8Array, byte: number) => {
    const out = new Uint8Array(Math.ceil(b.length / 4) * 4).fill(byte);
    out.set(b);
    return out;
  };
  const text = typeof json === "string" ? json : JSON.stringify(json);
  const j = pad(new TextEncoder().encode(text), 0x20);
  const b = bin ? pad(bin, 0) : null;
  const total = 12 + 8 + j.length + (b ? 8 + b.length : 0);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, total, true);
  dv.setUint32(12, j.length, true);
  dv.setUint32(16, 0x4e4f534a, true);
  out.set(j, 20);
  if (b) {
    dv.setUint32(20 + j.length, b.length, true);
    dv.setUint32(24 + j.length, 0x004e4942, true);
    out.set(b, 28 + j.length);
  }
  return out;
}

/** One triangle (36 bytes of float positions), drawn by `nodes` nodes. */
function instancedTriangle(nodes: number) {
  const pos = new Float32Array([0, 0, 0, 0, 0, 1, 1, 0, 0]);
  const json = {
    asset: { version: "2.0" },
    scenes: [{ nodes: Array.from({ length: nodes }, (_, i) => i) }],
    nodes: Array.from({ length: nodes }, (_, i) => ({ mesh: 0, translation: [i * 2, 0, 0] })),
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: "VEC3" }],
    bufferViews: [{ buffer: 0, byteLength: 36 }],
    buffers: [{ byteLength: 36 }],
  };
  return { json, bin: new Uint8Array(pos.buffer) };
}

describe("B8: devices and FIFOs as the main input are refused at once", () => {
  it("readRegularFile refuses a FIFO without blocking, /dev/zero without reading, a directory", () => {
    const d = fresh();
    const f = fifo(d, "level.obj");
    if (f !== null) expect(thrown(() => readRegularFile(f)).message).toMatch(/is a FIFO/);
    expect(thrown(() => readRegularFile("/dev/zero")).message).toBe(
      "/dev/zero: is a character device, not a regular file; only regular files are read",
    );
    expect(thrown(() => readRegularFile(d)).message).toMatch(/is a directory, expected a file$/);
    expect(thrown(() => readRegularFile(join(d, "none"))).message).toMatch(/no such file$/);
  });

  it("loadNavMeshFile and loadGltfMesh refuse a FIFO and a link to /dev/zero", async () => {
    const d = fresh();
    const f = fifo(d, "level.navmesh");
    if (f !== null) expect(thrown(() => loadNavMeshFile(f)).message).toMatch(/is a FIFO/);
    const link = join(d, "zero.glb");
    symlinkSync("/dev/zero", link);
    expect((await rejected(() => loadGltfMesh(link))).message).toMatch(/character device/);
    expect(thrown(() => loadNavMeshFile(link)).message).toMatch(/character device/);
  });

  it("the size is checked before reading: a file over maxBytes is refused naming both sizes", () => {
    const d = fresh();
    const big = sparse(join(d, "big.json"), 5 << 20);
    expect(thrown(() => readRegularFile(big, { maxBytes: 1 << 20 })).message).toBe(
      `${big}: is 5242880 bytes (5.0 MiB), more than the 1048576 bytes (1.0 MiB) meshway reads`,
    );
  });
});

describe("B6: glTF amplification is bounded before allocating", () => {
  it("a 232-byte GLB with a zero-filled accessor of 50 M vertices is refused by its size", async () => {
    const json = {
      asset: { version: "2.0" },
      scenes: [{ nodes: [0] }],
      nodes: [{ mesh: 0 }],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
      accessors: [{ componentType: 5126, count: 50_000_000, type: "VEC3" }],
    };
    const e = await rejected(() => parseGlb(glb(json), "zero.glb"));
    expect(e.message).toBe(
      "zero.glb: its POSITION accessors declare 50000000 vertices, more than 3 × maxTriangles (30000000); raise the maxTriangles load option (CLI: --max-triangles N) if this is meant",
    );
  });

  it("instancing one triangle 1000 times passes the default and is refused over maxTriangles", async () => {
    const { json, bin } = instancedTriangle(1000);
    const bytes = glb(json, bin);
    expect((await parseGlb(bytes, "i.glb")).mesh.triangleCount).toBe(1000);
    const e = await rejected(() => parseGlb(bytes, "i.glb", { maxTriangles: 999 }));
    expect(e.message).toMatch(
      /^i\.glb: scene 0 expands to 1000 triangles, more than maxTriangles \(999\) from 1000 mesh instances; raise the maxTriangles/,
    );
    expect((await rejected(() => parseGlb(bytes, "i.glb", { maxTriangles: 0 }))).code).toBe(
      "INVALID_ARGUMENT",
    );
  });

  it("a compression extension declared only on a bufferView is refused by name", async () => {
    const { json, bin } = instancedTriangle(1);
    (json.bufferViews[0] as Record<string, unknown>).extensions = {
      EXT_meshopt_compression: { buffer: 0, byteLength: 36 },
    };
    expect((await rejected(() => parseGlb(glb(json, bin), "m.glb"))).message).toMatch(
      /^m\.glb: bufferViews\[0\] uses EXT_meshopt_compression \(compressed geometry\)/,
    );
  });

  it("one external file named by 40 buffers gives the same mesh, read once, declared bytes only", async () => {
    const d = fresh();
    const { json, bin } = instancedTriangle(1);
    // 36 bytes used in a 1 MiB file.
    const file = new Uint8Array(1 << 20);
    file.set(bin);
    writeFileSync(join(d, "buf.bin"), file);
    const many = {
      ...json,
      buffers: Array.from({ length: 40 }, () => ({ uri: "buf.bin", byteLength: 36 })),
      bufferViews: Array.from({ length: 40 }, (_, b) => ({ buffer: b, byteLength: 36 })),
      accessors: Array.from({ length: 40 }, (_, v) => ({
        bufferView: v,
        componentType: 5126,
        count: 3,
        type: "VEC3",
      })),
      meshes: [
        {
          primitives: Array.from({ length: 40 }, (_, a) => ({ attributes: { POSITION: a } })),
        },
      ],
    };
    writeFileSync(join(d, "many.gltf"), JSON.stringify(many));
    const { mesh } = await loadGltfMesh(join(d, "many.gltf"));
    expect(mesh.triangleCount).toBe(40);
    expect(mesh.positions.subarray(0, 9)).toEqual(new Float32Array(bin.buffer));
  });
});

describe("B7: an external buffer is checked on the opened file", () => {
  it("a buffer that is a link to a FIFO or a device is refused without blocking", async () => {
    const d = fresh();
    const { json } = instancedTriangle(1);
    const ext = { ...json, buffers: [{ uri: "buf.bin", byteLength: 36 }] };
    writeFileSync(join(d, "level.gltf"), JSON.stringify(ext));
    const f = fifo(d, "buf.bin");
    if (f !== null) {
      expect((await rejected(() => loadGltfMesh(join(d, "level.gltf")))).message).toMatch(
        /buffers\[0\]\.uri "buf\.bin" is not a regular file$/,
      );
      rmSync(f);
    }
    symlinkSync("/dev/zero", join(d, "buf.bin"));
    expect((await rejected(() => loadGltfMesh(join(d, "level.gltf")))).message).toMatch(
      /buf\.bin" is not a regular file$/,
    );
  });
});

describe("B21: large glTF files are refused by size, not read whole", () => {
  it("a 3 GiB .glb with a bad magic is refused from its first 12 bytes", async () => {
    const d = fresh();
    const path = sparse(join(d, "big.glb"), 3 * 2 ** 30, new TextEncoder().encode("nope"));
    expect((await rejected(() => loadGltfMesh(path))).message).toBe(
      `${path}: bad GLB magic: expected "glTF", found "nope"`,
    );
  });

  it('a 600 MiB .gltf is refused as too long for a string, not as "not valid UTF-8"', async () => {
    const d = fresh();
    const path = sparse(join(d, "big.gltf"), 600 * 2 ** 20, new TextEncoder().encode("{"));
    const e = await rejected(() => loadGltfMesh(path));
    expect(e.message).toMatch(/holds 629145600 bytes of JSON text, more than the 536870888/);
    expect(e.message).not.toMatch(/UTF-8/);
  });
});

describe("B12 and B21: OBJ from bytes, in slices", () => {
  const text = "# t\nv 0 0 0\r\nv 0 0 1\nv 1 0 0\nv 1 0 1\nf 1 2 3\nf 2 4 3\n";

  it("chunks cut anywhere (even inside a line) parse as the whole text", () => {
    const whole = parseObj(text, "t.obj");
    const bytes = new TextEncoder().encode(text);
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      expect(parseObjBytes(chunks, "t.obj")).toEqual(whole);
    }
    expect(parseObjBytes(bytes, "t.obj")).toEqual(whole);
  });

  it("line numbers in messages count across chunks", () => {
    const bad = new TextEncoder().encode("v 0 0 0\nv 0 0 1\nv 1 0 0\nf 1 2 9x\n");
    const chunks = [bad.subarray(0, 10), bad.subarray(10, 20), bad.subarray(20)];
    expect(thrown(() => parseObjBytes(chunks, "b.obj")).message).toBe(
      'b.obj:4: face vertex "9x" is not an integer index (v, v/vt, v//vn or v/vt/vn): "f 1 2 9x"',
    );
  });

  it("a CR-only (classic Mac OS) OBJ parses like its LF twin", () => {
    const cr = text.replace(/\r?\n/g, "\r");
    expect(parseObj(cr, "t.obj")).toEqual(parseObj(text, "t.obj"));
    expect(parseObjBytes(new TextEncoder().encode(cr), "t.obj")).toEqual(parseObj(text, "t.obj"));
  });

  it("an OBJ error quotes at most 80 characters of a 1 MB token", () => {
    const e = thrown(() => parseObj(`v ${"9".repeat(1_000_000)}x 0 0\nf 1 1 1\n`, "big.obj"));
    expect(e.message.length).toBeLessThan(200);
    expect(e.message).toMatch(
      /^big\.obj:1: vertex coordinate "9{40}…" is not a finite number: "v 9{75}\.\.\."$/,
    );
  });

  it("NUL bytes are refused as binary data, chunk by chunk", () => {
    const d = fresh();
    const path = sparse(join(d, "zeros.obj"), 3 << 20);
    expect(thrown(() => parseObjBytes(readRegularFileChunks(path, 1 << 20), path)).message).toBe(
      `${path}: binary data where an OBJ text file was expected`,
    );
  });
});

describe("B19: output paths", () => {
  const bytes = new TextEncoder().encode("new contents\n");

  it("a symlink at the output is written through: the link stays, its target gets the bytes", () => {
    const d = fresh();
    writeFileSync(join(d, "target.navmesh"), "old\n");
    symlinkSync("target.navmesh", join(d, "link.navmesh"));
    writeFileAtomic(join(d, "link.navmesh"), bytes);
    expect(lstatSync(join(d, "link.navmesh")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(d, "target.navmesh"), "utf8")).toBe("new contents\n");
    expect(readdirSync(d).sort()).toEqual(["link.navmesh", "target.navmesh"]);
  });

  it("a FIFO or a device at the output is refused, never replaced", () => {
    const d = fresh();
    const f = fifo(d, "out.navmesh");
    if (f !== null) {
      expect(thrown(() => writeFileAtomic(f, bytes)).message).toMatch(
        /out\.navmesh: is a FIFO \(named pipe\); meshway writes only regular files/,
      );
      expect(lstatSync(f).isFIFO()).toBe(true);
    }
    expect(thrown(() => writeFileAtomic("/dev/null", bytes)).message).toMatch(/is a device/);
    expect(readdirSync(d)).toEqual(f === null ? [] : ["out.navmesh"]);
  });

  it("a legal 248-character file name is written (the temporary name is shortened)", () => {
    const d = fresh();
    const long = join(d, `${"n".repeat(240)}.navmesh`);
    writeFileAtomic(long, bytes);
    expect(readFileSync(long, "utf8")).toBe("new contents\n");
    expect(readdirSync(d)).toHaveLength(1);
  });

  it("chunks are written in order; an empty path and zero bytes in all are refused", () => {
    const d = fresh();
    const out = join(d, "chunks.json");
    const enc = new TextEncoder();
    writeFileAtomic(out, [enc.encode("{"), enc.encode('"a":1'), enc.encode("}")]);
    expect(readFileSync(out, "utf8")).toBe('{"a":1}');
    expect(thrown(() => writeFileAtomic("", bytes)).message).toMatch(/output path is empty/);
    expect(thrown(() => writeFileAtomic(out, [new Uint8Array(0)])).code).toBe("INVALID_ARGUMENT");
    expect(readFileSync(out, "utf8")).toBe('{"a":1}');
    expect(readdirSync(d)).toEqual(["chunks.json"]);
  });

  it("a read-only mount is named as such (not ENOENT)", () => {
    const erofs = Object.assign(new Error("EROFS"), { code: "EROFS" });
    expect(describeFsError(erofs, "write")).toBe("read-only file system");
  });
});

describe("B21: small ones", () => {
  it("Infinity in a node matrix is printed as Infinity, not null", async () => {
    const { json, bin } = instancedTriangle(1);
    // 1e999 in the JSON text is how a file carries Infinity (JSON.parse reads it so).
    const text = JSON.stringify(json).replace(
      '"translation":[0,0,0]',
      '"matrix":[1e999,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]',
    );
    const e = await rejected(() => parseGlb(glb(text, bin), "inf.glb"));
    expect(e.message).toBe(
      "inf.glb: nodes[0].matrix is [Infinity,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]; expected 16 finite numbers",
    );
  });

  it("sparse indices at or past the accessor's count are refused", async () => {
    const { json } = instancedTriangle(1);
    const bin = new Uint8Array(8 + 12);
    new DataView(bin.buffer).setUint32(0, 3, true); // index 3 of a 3-element accessor
    const sparseJson = {
      ...json,
      accessors: [
        {
          componentType: 5126,
          count: 3,
          type: "VEC3",
          sparse: {
            count: 1,
            indices: { bufferView: 0, componentType: 5125 },
            values: { bufferView: 1 },
          },
        },
      ],
      bufferViews: [
        { buffer: 0, byteLength: 4 },
        { buffer: 0, byteOffset: 8, byteLength: 12 },
      ],
      buffers: [{ byteLength: 20 }],
    };
    expect((await rejected(() => parseGlb(glb(sparseJson, bin), "s.glb"))).message).toBe(
      "s.glb: accessors[0].sparse.indices[0] is 3; expected an index below the accessor's count 3",
    );
  });

  it("findStraightPath with out = null or a frozen output gives MeshwayError, not TypeError", async () => {
    const { buildNavMesh } = await import("../../src/generate/build-nav-mesh.js");
    const { NavMeshQuery } = await import("../../src/query/nav-mesh-query.js");
    const { StraightPath } = await import("../../src/query/straight-path.js");
    const floor = {
      positions: new Float32Array([0, 0, 0, 0, 0, 10, 10, 0, 10, 10, 0, 0]),
      indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
    };
    const q = new NavMeshQuery(buildNavMesh(floor).navMesh);
    for (const out of [null, Object.freeze([]), Object.freeze(new StraightPath())]) {
      const e = thrown(() =>
        q.findStraightPath(
          [1, 0, 1],
          [2, 0, 2],
          [1],
          1,
          out as unknown as InstanceType<typeof StraightPath>,
        ),
      );
      expect(e.code).toBe("INVALID_ARGUMENT");
      expect(e.message).toMatch(/^findStraightPath: out must be a writable StraightPath/);
    }
  });
});
