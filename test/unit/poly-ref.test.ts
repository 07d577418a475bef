import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  encodePolyRef,
  isOffMeshRef,
  MAX_POLYS_PER_TILE,
  MAX_SALT,
  MAX_TILES,
  nextSalt,
  OFF_MESH_SLOT,
  polyOfRef,
  REF_LIMIT,
  saltOfRef,
  tileBaseOfRef,
  tileOfRef,
} from "../../src/navmesh/poly-ref.js";

describe("poly-ref: the bit layout", () => {
  it("encodes and decodes the extreme fields exactly (2^20 polygons, 2^20 slots, 4095 salts)", () => {
    const cases: [number, number, number][] = [
      [1, 0, 0],
      [1, OFF_MESH_SLOT, MAX_POLYS_PER_TILE - 1],
      [1, MAX_TILES - 1, 0],
      [MAX_SALT, MAX_TILES - 1, MAX_POLYS_PER_TILE - 1],
      [MAX_SALT, 0, 0],
      [2048, 524288, 524288],
    ];
    for (const [salt, tile, poly] of cases) {
      const ref = encodePolyRef(salt, tile, poly);
      expect(Number.isSafeInteger(ref)).toBe(true);
      expect(ref).toBeLessThan(REF_LIMIT);
      expect([saltOfRef(ref), tileOfRef(ref), polyOfRef(ref)]).toEqual([salt, tile, poly]);
      expect(tileBaseOfRef(ref)).toBe(encodePolyRef(salt, tile, 0));
      expect(isOffMeshRef(ref)).toBe(tile === OFF_MESH_SLOT);
    }
    // The largest ref is the last integer below 2^52.
    expect(encodePolyRef(MAX_SALT, MAX_TILES - 1, MAX_POLYS_PER_TILE - 1)).toBe(REF_LIMIT - 1);
    expect(REF_LIMIT).toBe(2 ** 52);
    expect([MAX_POLYS_PER_TILE, MAX_TILES, MAX_SALT]).toEqual([2 ** 20, 2 ** 20, 4095]);
  });

  it("round-trips every field combination (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_SALT }),
        fc.integer({ min: 0, max: MAX_TILES - 1 }),
        fc.integer({ min: 0, max: MAX_POLYS_PER_TILE - 1 }),
        (salt, tile, poly) => {
          const ref = encodePolyRef(salt, tile, poly);
          return saltOfRef(ref) === salt && tileOfRef(ref) === tile && polyOfRef(ref) === poly;
        },
      ),
      { numRuns: 2000, seed: 12 },
    );
  });

  it("refs of one tile are its base plus the polygon index, in order", () => {
    const base = encodePolyRef(7, 9, 0);
    expect(encodePolyRef(7, 9, 5)).toBe(base + 5);
    expect(encodePolyRef(7, 10, 0)).toBe(base + MAX_POLYS_PER_TILE);
  });

  it("nextSalt runs 1..4095 and wraps to 1, never 0", () => {
    expect(nextSalt(1)).toBe(2);
    expect(nextSalt(MAX_SALT - 1)).toBe(MAX_SALT);
    expect(nextSalt(MAX_SALT)).toBe(1);
  });
});

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts")) out.push(path);
  }
  return out;
}

const SRC = join(import.meta.dirname, "../../src");

describe("poly-ref owns the layout", () => {
  // Copies of the layout that drifted apart before (2 ** 20 in eight files, a bare 1048576).
  const LAYOUT = [
    /2 \*\* (20|40|52)\b/,
    /\b1048576\b/,
    /\b1048575\b/,
    /\b0x100000\b/,
    /\b0xfffff\b/,
    /\bPOLY_SPACE\b/,
    /\bTILE_SPACE\b/,
  ];

  it("no file but navmesh/poly-ref.ts writes the ref layout's numbers", () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const rel = relative(SRC, file);
      if (rel === join("navmesh", "poly-ref.ts")) continue;
      const lines = readFileSync(file, "utf8").split("\n");
      lines.forEach((line, i) => {
        for (const re of LAYOUT)
          if (re.test(line)) offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it("query/ reads NavMesh through its accessors, not its internal slots and connection arrays", () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(join(SRC, "query"))) {
      const rel = relative(SRC, file);
      const lines = readFileSync(file, "utf8").split("\n");
      lines.forEach((line, i) => {
        if (/\.(slots|offMesh|offMeshPoints)\b/.test(line)) {
          offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
        }
      });
    }
    expect(offenders).toEqual([]);
  });
});
