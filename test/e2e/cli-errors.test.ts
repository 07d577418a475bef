import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meshway } from "../helpers/cli.js";

// The rest of the CLI error matrix (issue 4) beyond cli-commands.test.ts: every bad input
// exits 1 (or 2 for usage) with one `meshway: <file>: <what, where>` line, no stack trace, and
// leaves no output file — nor a temporary one — behind.
const NAV_TEST = "test/fixtures/meshes/nav_test.obj";
const dir = mkdtempSync(join(tmpdir(), "meshway-errors-"));
const good = join(dir, "good.navmesh");
const isRoot = process.getuid?.() === 0;

function expectBadInput(r: ReturnType<typeof meshway>, file: string, what: RegExp) {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr.startsWith(`meshway: ${file}:`), r.stderr).toBe(true);
  expect(r.stderr).toMatch(what);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

/** Nothing but the listed files in the directory: no outputs, no `.tmp` leftovers. */
function expectOnly(names: string[]) {
  expect(readdirSync(dir).sort()).toEqual([...names].sort());
}

const inputs = new Map<string, string>();
/** Writes an input file and remembers it as expected in the directory. */
function input(name: string, content: string | Uint8Array): string {
  const file = join(dir, name);
  writeFileSync(file, content);
  inputs.set(name, file);
  return file;
}

beforeAll(() => {
  expect(meshway("build", NAV_TEST, "-o", good, "--quiet").code).toBe(0);
  inputs.set("good.navmesh", good);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("meshway CLI: navmesh inputs that are not navmeshes", () => {
  it("random bytes, an empty file and a truncated Detour export: exit 1 at a byte, for every command", () => {
    const random = input(
      "random.navmesh",
      new Uint8Array(300).map((_, i) => (i * 131 + 7) & 0xff),
    );
    const empty = input("empty.navmesh", "");
    const detour = input("short.navmesh", new Uint8Array([0x54, 0x45, 0x53, 0x4d, 1, 0, 0]));
    for (const [file, what] of [
      [random, /bad magic .* at byte 0$/m],
      [empty, /empty file/],
      [detour, /truncated/],
    ] as const) {
      expectBadInput(meshway("info", file), file, what);
      expectBadInput(meshway("path", file, "--from", "1,0,1", "--to", "2,0,2"), file, what);
      expectBadInput(
        meshway("export", file, "--format", "json", "-o", join(dir, "o.json")),
        file,
        what,
      );
      expectBadInput(meshway("render", file, "-o", join(dir, "o.png")), file, what);
    }
    expectOnly([...inputs.keys()]);
  });

  it("a flipped byte, a truncated file and a newer version: export and render write nothing", () => {
    const bytes = readFileSync(good);
    const flipped = new Uint8Array(bytes);
    flipped[300]! ^= 0x10;
    const newer = new Uint8Array(bytes);
    new DataView(newer.buffer).setUint16(4, 2, true);
    const cases: [string, Uint8Array, RegExp][] = [
      ["flipped.navmesh", flipped, /corrupted: payload checksum .* at byte 120$/m],
      ["cut.navmesh", bytes.subarray(0, 1000), /truncated: .* at byte 1000$/m],
      ["newer.navmesh", newer, /format version 2 is newer than this meshway reads/],
    ];
    for (const [name, content, what] of cases) {
      const file = input(name, content);
      expectBadInput(
        meshway("export", file, "--format", "obj", "-o", join(dir, "o.obj")),
        file,
        what,
      );
      expectBadInput(meshway("render", file, "-o", join(dir, "o.svg")), file, what);
      expectBadInput(
        meshway("path", file, "--from", "1,0,1", "--to", "2,0,2", "--json"),
        file,
        what,
      );
    }
    expectOnly([...inputs.keys()]);
  });

  it("a failed export or render never clobbers an existing output", () => {
    const keep = input("keep.json", '{"kept": true}\n');
    const random = inputs.get("random.navmesh")!;
    expect(meshway("export", random, "--format", "json", "-o", keep).code).toBe(1);
    expect(meshway("render", random, "-o", keep.replace(/json$/, "png")).code).toBe(1);
    expect(readFileSync(keep, "utf8")).toBe('{"kept": true}\n');
    expectOnly([...inputs.keys()]);
  });
});

describe("meshway CLI: files it cannot read or write", () => {
  // Root reads a file whatever its mode bits say (CI runs as root), so there the file is
  // readable and this case cannot be produced; it runs for every other user.
  it.skipIf(isRoot)("an unreadable file (chmod 000): exit 1, permission denied", () => {
    const locked = input("locked.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n");
    chmodSync(locked, 0);
    try {
      expectBadInput(
        meshway("build", locked, "-o", join(dir, "x.navmesh")),
        locked,
        /permission denied/,
      );
      const lockedMesh = input("locked.navmesh", readFileSync(good));
      chmodSync(lockedMesh, 0);
      expectBadInput(meshway("info", lockedMesh), lockedMesh, /permission denied/);
    } finally {
      chmodSync(locked, 0o644);
      if (inputs.has("locked.navmesh")) chmodSync(inputs.get("locked.navmesh")!, 0o644);
    }
    expectOnly([...inputs.keys()]);
  });

  it("an output path below a regular file: exit 1 naming the output, nothing written", () => {
    const blocker = input("blocker", "not a directory");
    const out = join(blocker, "x.navmesh");
    expectBadInput(meshway("build", NAV_TEST, "-o", out, "--quiet"), out, /not a directory/);
    expectOnly([...inputs.keys()]);
  });

  it("an output that is a directory: exit 1, the directory untouched", () => {
    const out = join(dir, "outdir");
    const r = meshway("build", NAV_TEST, "-o", dir, "--quiet");
    expectBadInput(r, dir, /is a directory/);
    expect(existsSync(out)).toBe(false);
    expectOnly([...inputs.keys()]);
  });
});

describe("meshway CLI: malformed points", () => {
  it("--from / --to that are not three finite numbers: usage error (exit 2) naming the flag", () => {
    for (const bad of [
      "1,2",
      "1,NaN,3",
      "1e999,0,0",
      "1,2,3,4",
      ",,",
      "x",
      "1,,2",
      "Infinity,0,0",
    ]) {
      for (const flag of ["--from", "--to"]) {
        const args =
          flag === "--from" ? [`--from=${bad}`, "--to=1,0,1"] : ["--from=1,0,1", `--to=${bad}`];
        const r = meshway("path", good, ...args);
        expect(r.code, `${flag} ${bad}`).toBe(2);
        expect(r.stderr.split("\n")[0]).toBe(
          `meshway: ${flag} expects three numbers x,y,z, got "${bad}"`,
        );
        expect(r.stderr).not.toMatch(/\n\s+at /);
      }
    }
  });

  it("points far off the mesh or huge: found false with a reason, exit 0", () => {
    for (const p of ["1000,0,1000", "1e300,0,-1e300", "-3.4e38,0,0"]) {
      const r = meshway("path", good, `--from=${p}`, "--to=21,-2.1,15.6", "--json");
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.found).toBe(false);
      expect(out.reason).toMatch(/not on the navmesh/);
    }
  });
});
