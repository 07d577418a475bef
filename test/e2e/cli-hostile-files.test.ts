// Issue 19 part B through the CLI: B15 (an output equal to an input overwrote it), B8 (devices
// and FIFOs as inputs hung or ate memory), B19 (-o '' said "is a directory"), B18 (a signal in
// the save window left a temporary file).
import { spawnSync } from "node:child_process";
import {
  closeSync,
  copyFileSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { meshway } from "../helpers/cli.js";

const NAV_TEST = "test/fixtures/meshes/nav_test.obj";
const dir = mkdtempSync(join(tmpdir(), "meshway-hostile-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function expectRefused(r: ReturnType<typeof meshway>, what: RegExp): void {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toMatch(what);
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
}

describe("B15: an output equal to an input is refused, the input unchanged", () => {
  it("build in.obj -o in.obj, export x.navmesh -o x.navmesh, and through a link", () => {
    const obj = join(dir, "in.obj");
    copyFileSync(NAV_TEST, obj);
    const before = readFileSync(obj);
    expectRefused(
      meshway("build", obj, "-o", obj, "--quiet"),
      /in\.obj: is the input file; refusing to overwrite an input/,
    );
    expect(readFileSync(obj).equals(before)).toBe(true);

    const nav = join(dir, "x.navmesh");
    expect(meshway("build", obj, "-o", nav, "--quiet").code).toBe(0);
    const navBefore = readFileSync(nav);
    expectRefused(
      meshway("export", nav, "--format", "obj", "-o", nav),
      /x\.navmesh: is the input file; refusing/,
    );
    symlinkSync("x.navmesh", join(dir, "alias.navmesh"));
    expectRefused(
      meshway("export", join(dir, "alias.navmesh"), "-o", nav, "--format", "json"),
      /is the same file as the input .*alias\.navmesh/,
    );
    expect(readFileSync(nav).equals(navBefore)).toBe(true);
    expect(readFileSync(obj).equals(before)).toBe(true);
  });
});

describe("B15: a glTF's external buffer is an input too", () => {
  it("build level.gltf -o level.bin is refused, the buffer unchanged", () => {
    const d = mkdtempSync(join(dir, "gltf-"));
    const pos = new Float32Array([0, 0, 0, 0, 0, 10, 10, 0, 10, 10, 0, 0]);
    const idx = new Uint16Array([0, 1, 2, 0, 2, 3]);
    const bin = Buffer.concat([Buffer.from(pos.buffer), Buffer.from(idx.buffer)]);
    writeFileSync(join(d, "level.bin"), bin);
    const json = {
      asset: { version: "2.0" },
      scenes: [{ nodes: [0] }],
      nodes: [{ mesh: 0 }],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
      accessors: [
        { bufferView: 0, componentType: 5126, count: 4, type: "VEC3" },
        { bufferView: 1, componentType: 5123, count: 6, type: "SCALAR" },
      ],
      bufferViews: [
        { buffer: 0, byteLength: 48 },
        { buffer: 0, byteOffset: 48, byteLength: 12 },
      ],
      buffers: [{ uri: "level.bin", byteLength: 60 }],
    };
    writeFileSync(join(d, "level.gltf"), JSON.stringify(json));
    expectRefused(
      meshway("build", join(d, "level.gltf"), "-o", join(d, "level.bin"), "--quiet"),
      /level\.bin: is the input file; refusing/,
    );
    expect(readFileSync(join(d, "level.bin")).equals(bin)).toBe(true);
  });
});

describe("B8: a FIFO or a device as an input is refused at once", () => {
  it("build, info, --config and export refuse /dev/zero and a FIFO (exit 1, no hang)", () => {
    const zeroObj = join(dir, "zero.obj");
    symlinkSync("/dev/zero", zeroObj);
    expectRefused(meshway("build", zeroObj, "--quiet"), /zero\.obj: is a character device/);
    expectRefused(meshway("info", "/dev/zero"), /^meshway: \/dev\/zero: is a character device/);
    expectRefused(
      meshway("build", NAV_TEST, "--config", "/dev/zero", "--quiet"),
      /\/dev\/zero: is a character device/,
    );
    const fifo = join(dir, "level.navmesh");
    if (spawnSync("mkfifo", [fifo]).status === 0) {
      expectRefused(meshway("export", fifo, "--format", "json"), /is a FIFO \(named pipe\)/);
    }
  });
});

describe("B12: an OBJ over V8's string limit", () => {
  it("a 600 MiB OBJ ends in exit 1 with a located message, not exit 70 (internal error)", () => {
    const big = join(dir, "sparse_600m.obj");
    const fd = openSync(big, "w");
    ftruncateSync(fd, 600 * 2 ** 20); // sparse: no disk used; all zero bytes
    closeSync(fd);
    expectRefused(
      meshway("build", big, "--quiet"),
      /sparse_600m\.obj: binary data where an OBJ text file was expected/,
    );
    rmSync(big);
  });
});

describe("B19: -o ''", () => {
  it("is a usage error saying the output path is empty", () => {
    const r = meshway("build", NAV_TEST, "-o", "", "--quiet");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^meshway: -o needs a file name; the output path is empty\n/);
    expect(meshway("export", "x.navmesh", "-o", "").stderr).toMatch(/output path is empty/);
  });
});

describe("B18: a SIGTERM inside the save window", () => {
  it("leaves no temporary file beside the output and still ends the process by the signal", () => {
    const out = join(dir, "signalled.bin");
    writeFileSync(out, "old\n");
    const module = resolve("dist/node.js");
    // The child signals itself from inside the save, between two chunks.
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(module)};
      function* chunks() {
        yield new Uint8Array(1 << 20).fill(1);
        process.kill(process.pid, "SIGTERM");
        for (let i = 0; i < 8; i++) yield new Uint8Array(1 << 20).fill(2);
      }
      writeFileAtomic(${JSON.stringify(out)}, chunks());
      setTimeout(() => { console.log("not ended by the signal"); process.exit(3); }, 3000);
    `;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.signal).toBe("SIGTERM");
    expect(readdirSync(dir).filter((f) => f.includes("signalled"))).toEqual(["signalled.bin"]);
    // The save had begun: it completes, then the signal ends the process.
    expect(readFileSync(out).length).toBe(9 << 20);
  });
});

describe("B21: CLI numbers and tile sizes", () => {
  it("path --from 0x10,0,0 is refused as OBJ parsing refuses hex; decimals with exponents pass", () => {
    const r = meshway("path", "x.navmesh", "--from", "0x10,0,0", "--to", "1,0,1");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--from expects three numbers x,y,z, got "0x10,0,0"/);
    expect(meshway("build", NAV_TEST, "--agent-radius", "0b1", "--quiet").stderr).toMatch(
      /--agent-radius expects a number, got "0b1"/,
    );
  });

  it("--tile-size 1 is refused at once instead of an empty navmesh after seconds", () => {
    const r = meshway("build", NAV_TEST, "--tile-size", "1", "--quiet");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--tile-size 1 is under 8 cells: such tiles are mostly border/);
  });
});
