import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Issue 19 A5: the published .d.ts must compile in a user's Node project — lib es2022 (no
// DOM: TS2304 on `Worker` was the bug), no skipLibCheck, module nodenext, declaration on (so
// re-exported results need exported types: TS2742), and a partial build config (TS2740).
const ROOT = resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "meshway-consumer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CONSUMER = `import { readFileSync } from "node:fs";
import {
  type BuildConfig,
  type BuildConfigInput,
  buildNavMesh,
  buildTiledNavMesh,
  NavMeshQuery,
  parseObj,
} from "meshway";
import { parseObj as parseObjIo } from "meshway/io";
import {
  buildTiledNavMeshNode,
  type GltfParseOptions,
  type LoadedNavMeshFile,
  loadNavMeshFile,
  parseGltf,
  type SaveFileSystem,
} from "meshway/node";

export const options: BuildConfigInput = { agentRadius: 0.4 };
export const mesh = parseObj(readFileSync("level.obj", "utf8"), "level.obj");
export const built = buildNavMesh(mesh, options);
export const tiled = buildTiledNavMesh(mesh, { ...options, tileSize: 64 });
export const onThreads = buildTiledNavMeshNode(parseObjIo("", "x.obj"), options, { threads: 2 });
export const loaded = () => loadNavMeshFile("level.navmesh");
export const loadedFile: () => LoadedNavMeshFile = loaded;
export const gltf = (bytes: Uint8Array, o: GltfParseOptions) => parseGltf(bytes, "a.gltf", o);
export const path = new NavMeshQuery(built.navMesh).computePath([0, 0, 0], [1, 0, 1]);
export type Fs = SaveFileSystem;
export type Full = BuildConfig;
`;

beforeAll(() => {
  mkdirSync(join(dir, "node_modules/@types"), { recursive: true });
  symlinkSync(ROOT, join(dir, "node_modules/meshway"), "dir");
  symlinkSync(join(ROOT, "node_modules/@types/node"), join(dir, "node_modules/@types/node"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "es2022",
        lib: ["es2022"],
        module: "nodenext",
        moduleResolution: "nodenext",
        strict: true,
        declaration: true,
        noEmit: true,
        skipLibCheck: false,
        types: ["node"],
      },
      files: ["index.ts"],
    }),
  );
  writeFileSync(join(dir, "index.ts"), CONSUMER);
});

describe("a consumer project type-checks against the built .d.ts", () => {
  it("lib es2022, no skipLibCheck, module nodenext, declaration: tsc passes", () => {
    const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
    const r = spawnSync(process.execPath, [tsc, "-p", dir], { encoding: "utf8", cwd: dir });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 120_000);

  it("a CommonJS project (npm init -y) compiles with nodenext and runs (was: TS1479)", () => {
    const cjs = join(dir, "cjs");
    mkdirSync(join(cjs, "node_modules/@types"), { recursive: true });
    symlinkSync(ROOT, join(cjs, "node_modules/meshway"), "dir");
    symlinkSync(join(ROOT, "node_modules/@types/node"), join(cjs, "node_modules/@types/node"));
    writeFileSync(join(cjs, "package.json"), JSON.stringify({ name: "x", version: "1.0.0" }));
    writeFileSync(
      join(cjs, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          lib: ["es2022"],
          strict: true,
          declaration: true,
          outDir: "out",
          types: ["node"],
        },
        files: ["index.ts"],
      }),
    );
    writeFileSync(
      join(cjs, "index.ts"),
      'import { type BuildConfigInput, DEFAULT_CONFIG } from "meshway";\n' +
        "export const options: BuildConfigInput = { agentRadius: 0.4 };\n" +
        "console.log(DEFAULT_CONFIG.cellSize);\n",
    );
    const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
    const r = spawnSync(process.execPath, [tsc, "-p", cjs], { encoding: "utf8", cwd: cjs });
    expect(r.stdout + r.stderr).toBe("");
    const run = spawnSync(process.execPath, ["out/index.js"], { encoding: "utf8", cwd: cjs });
    expect(run.stdout).toBe("0.3\n");
  }, 120_000);

  it('require("meshway") works where Node can require ES modules, else says how to import', () => {
    const run = (...flags: string[]) =>
      spawnSync(
        process.execPath,
        [...flags, "-e", 'console.log(typeof require("meshway/node").loadNavMeshFile)'],
        { encoding: "utf8", cwd: dir },
      );
    const r = run();
    expect(r.stdout).toBe("function\n"); // Node >= 20.19: require(esm)
    const old = run("--no-experimental-require-module"); // what older Node does
    expect(old.status).not.toBe(0);
    expect(old.stderr).toMatch(/meshway is an ES module: use `import/);
    expect(old.stderr).not.toMatch(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });
});
