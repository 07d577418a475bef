import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseObj } from "../../src/io/index.js";
import { thrownMeshwayError } from "../helpers/thrown.js";

const MESH_DIR = fileURLToPath(new URL("../fixtures/meshes/", import.meta.url));

function expectObjError(text: string, lineNo: number, fragment: string, line: string): void {
  const err = thrownMeshwayError(() => parseObj(text, "t.obj"));
  expect(err.code).toBe("OBJ_PARSE");
  expect(err.message.startsWith(`t.obj:${lineNo}: `)).toBe(true);
  expect(err.message).toContain(fragment);
  expect(err.message.endsWith(`: "${line}"`)).toBe(true);
}

const QUAD_VERTS = "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\n";

describe("parseObj accepted forms", () => {
  it("reads a single triangle with exact positions and 0-based indices", () => {
    const m = parseObj("v 0 1 2\nv 3.5 -4 5e-1\nv -0.25 +7 1E2\nf 1 2 3\n");
    expect(m.vertexCount).toBe(3);
    expect(m.triangleCount).toBe(1);
    expect(m.positions).toBeInstanceOf(Float32Array);
    expect(m.indices).toBeInstanceOf(Uint32Array);
    expect(Array.from(m.positions)).toEqual([0, 1, 2, 3.5, -4, 0.5, -0.25, 7, 100]);
    expect(Array.from(m.indices)).toEqual([0, 1, 2]);
  });

  it("stores coordinates rounded to float32", () => {
    const m = parseObj("v 0.1 0.2 0.3\nv 1 0 0\nv 0 0 1\nf 1 2 3");
    expect(m.positions[0]).toBe(Math.fround(0.1));
    expect(m.positions[2]).toBe(Math.fround(0.3));
  });

  it("accepts v with a w component and with r g b colours, ignoring the extras", () => {
    const m = parseObj("v 1 2 3 1\nv 4 5 6 0.5 0.5 0.5\nv 7 8 9\nf 1 2 3");
    expect(Array.from(m.positions)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("reads the v, v/vt, v//vn and v/vt/vn face forms alike", () => {
    const head = `${QUAD_VERTS}vt 0 0\nvt 1 0\nvt 1 1\nvn 0 1 0\n`;
    for (const f of ["f 1 2 3", "f 1/1 2/2 3/3", "f 1//1 2//1 3//1", "f 1/1/1 2/2/1 3/3/1"]) {
      const m = parseObj(`${head}${f}\n`);
      expect(Array.from(m.indices)).toEqual([0, 1, 2]);
    }
  });

  it("mixes forms within one face", () => {
    const m = parseObj(`${QUAD_VERTS}f 1 2/5 3//7 4/1/1\n`);
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 0, 2, 3]);
  });

  it("fan-triangulates polygons as (0, i-1, i), like RecastDemo", () => {
    const m = parseObj("v 0 0 0\nv 1 0 0\nv 2 0 1\nv 1 0 2\nv 0 0 2\nf 1 2 3 4 5\n");
    expect(m.triangleCount).toBe(3);
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 0, 2, 3, 0, 3, 4]);
  });

  it("triangulates a face with many vertices (grows the face scratch)", () => {
    const n = 40;
    let text = "";
    for (let i = 0; i < n; i++) text += `v ${Math.cos(i)} 0 ${Math.sin(i)}\n`;
    text += `f ${Array.from({ length: n }, (_, i) => i + 1).join(" ")}\n`;
    const m = parseObj(text);
    expect(m.triangleCount).toBe(n - 2);
    expect(Array.from(m.indices.slice(-3))).toEqual([0, n - 2, n - 1]);
  });

  it("resolves negative indices relative to the vertices read so far", () => {
    const m = parseObj(`${QUAD_VERTS}f -4 -3 -2\nv 5 5 5\nf -1 -2/1 -3//2\n`);
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 4, 3, 2]);
  });

  it("accepts a face that references a vertex defined later in the file", () => {
    const m = parseObj("v 0 0 0\nv 1 0 0\nf 1 2 3\nv 0 0 1\n");
    expect(Array.from(m.indices)).toEqual([0, 1, 2]);
    expect(m.vertexCount).toBe(3);
  });

  it("ignores comments, blank lines, other statements and unknown keywords", () => {
    const text = [
      "# a comment",
      "",
      "   ",
      "mtllib x.mtl",
      "o thing",
      "g group1 group2",
      "s 1",
      "s off",
      "usemtl stone",
      "vt 0.5 0.5",
      "vn 0 1 0",
      "vp 0.1 0.2",
      "l 1 2",
      "p 1",
      "cstype bezier",
      "foo bar baz",
      "vertex 1 2 3",
      "face 1 2 3",
      "fo 1 2 3",
      "v 0 0 0 # trailing comment",
      "\tv  1   0\t0  ",
      "v 0 0 1",
      "f 1 2 3 # another",
    ].join("\n");
    const m = parseObj(text);
    expect(m.vertexCount).toBe(3);
    expect(Array.from(m.positions)).toEqual([0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(Array.from(m.indices)).toEqual([0, 1, 2]);
  });

  it("handles CRLF line ends and a missing final newline", () => {
    const m = parseObj("v 0 0 0\r\nv 1 0 0\r\nv 0 0 1\r\nf 1 2 3");
    expect(Array.from(m.positions)).toEqual([0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(m.triangleCount).toBe(1);
  });

  it("grows buffers past their initial size and returns exact-length arrays", () => {
    const n = 5000;
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(`v ${i} 0 0`, `v ${i} 0 1`, `v ${i} 1 0`);
    for (let i = 0; i < n; i++) lines.push(`f ${3 * i + 1} ${3 * i + 2} ${3 * i + 3}`);
    const m = parseObj(lines.join("\n"));
    expect(m.vertexCount).toBe(3 * n);
    expect(m.triangleCount).toBe(n);
    expect(m.positions.length).toBe(9 * n);
    expect(m.indices.length).toBe(3 * n);
    expect(m.positions[3 * (3 * n - 1)]).toBe(n - 1);
    expect(m.indices[3 * n - 1]).toBe(3 * n - 1);
  });

  it("keeps degenerate faces with repeated vertices (Recast's loader does too)", () => {
    const m = parseObj("v 0 0 0\nv 1 0 0\nf 1 1 2\n");
    expect(Array.from(m.indices)).toEqual([0, 0, 1]);
  });

  it("is deterministic", () => {
    const text = readFileSync(`${MESH_DIR}nav_test.obj`, "utf8");
    const a = parseObj(text);
    const b = parseObj(text);
    expect(Buffer.from(a.positions.buffer).equals(Buffer.from(b.positions.buffer))).toBe(true);
    expect(Buffer.from(a.indices.buffer).equals(Buffer.from(b.indices.buffer))).toBe(true);
  });
});

describe("parseObj errors", () => {
  it("uses 'input.obj' as the default source name", () => {
    const err = thrownMeshwayError(() => parseObj("v 1 2\n"));
    expect(err.message.startsWith("input.obj:1: ")).toBe(true);
  });

  it("rejects v with too few or too many numbers", () => {
    expectObjError("v 1 2\n", 1, "vertex has 2 numbers", "v 1 2");
    expectObjError("# c\nv\n", 2, "vertex has 0 numbers", "v");
    expectObjError("v 1 2 3 4 5\n", 1, "vertex has 5 numbers", "v 1 2 3 4 5");
    expectObjError("v 1 2 3 4 5 6 7 8\n", 1, "vertex has 8 numbers", "v 1 2 3 4 5 6 7 8");
  });

  it("rejects non-numeric, NaN and infinite coordinates", () => {
    expectObjError(
      "v 0 0 0\nv 1 x 2\n",
      2,
      'vertex coordinate "x" is not a finite number',
      "v 1 x 2",
    );
    expectObjError("v NaN 0 0\n", 1, '"NaN" is not a finite number', "v NaN 0 0");
    expectObjError("v 0 Infinity 0\n", 1, '"Infinity" is not a finite number', "v 0 Infinity 0");
    expectObjError("v 0 0 -inf\n", 1, '"-inf" is not a finite number', "v 0 0 -inf");
    expectObjError("v 1.2.3 0 0\n", 1, '"1.2.3" is not a finite number', "v 1.2.3 0 0");
    expectObjError("v 0x10 0 0\n", 1, '"0x10" is not a finite number', "v 0x10 0 0");
    expectObjError("v 1 2 3 abc\n", 1, 'vertex component "abc" is not a number', "v 1 2 3 abc");
  });

  it("rejects coordinates beyond float32 range", () => {
    expectObjError("v 1e39 0 0\n", 1, "outside float32 range", "v 1e39 0 0");
    expectObjError("v 1e999 0 0\n", 1, "not a finite number", "v 1e999 0 0");
  });

  it("rejects faces with fewer than 3 vertices", () => {
    expectObjError(`${QUAD_VERTS}f 1 2\n`, 5, "face has 2 vertices, expected at least 3", "f 1 2");
    expectObjError(`${QUAD_VERTS}f\n`, 5, "face has 0 vertices", "f");
    expectObjError(`${QUAD_VERTS}f 1 # 2 3\n`, 5, "face has 1 vertices", "f 1 # 2 3");
  });

  it("rejects index 0", () => {
    expectObjError(`${QUAD_VERTS}f 0 1 2\n`, 5, "index 0 is invalid", "f 0 1 2");
    expectObjError(`${QUAD_VERTS}f 1 2 -0\n`, 5, "index 0 is invalid", "f 1 2 -0");
  });

  it("rejects non-integer and malformed face tokens", () => {
    expectObjError(
      `${QUAD_VERTS}f 1 2.5 3\n`,
      5,
      'face vertex "2.5" is not an integer index',
      "f 1 2.5 3",
    );
    expectObjError(
      `${QUAD_VERTS}f 1 a 3\n`,
      5,
      'face vertex "a" is not an integer index',
      "f 1 a 3",
    );
    expectObjError(`${QUAD_VERTS}f 1 2 /3\n`, 5, 'face vertex "/3" is not', "f 1 2 /3");
    expectObjError(
      `${QUAD_VERTS}f 1 2 3/1/1/1\n`,
      5,
      'face vertex "3/1/1/1" is not',
      "f 1 2 3/1/1/1",
    );
    expectObjError(`${QUAD_VERTS}f 1 2 3/x\n`, 5, 'face vertex "3/x" is not', "f 1 2 3/x");
    expectObjError(`${QUAD_VERTS}f 1 2 --3\n`, 5, 'face vertex "--3" is not', "f 1 2 --3");
  });

  it("rejects positive indices past the last vertex, reporting the face's line", () => {
    expectObjError(
      `${QUAD_VERTS}f 1 2 5\nv 9 9 9\nf 1 2 3\nf 1 2 7\n`,
      8,
      "face vertex index 7 is out of range (the file defines 5 vertices)",
      "f 1 2 7",
    );
    expectObjError(`v 0 0 0\nf 1 2 3\nv 1 0 0\n`, 2, "index 3 is out of range", "f 1 2 3");
    expectObjError(`${QUAD_VERTS}f 1 2 99999999999\n`, 5, "out of range", "f 1 2 99999999999");
  });

  it("rejects relative indices reaching before the first vertex", () => {
    expectObjError(
      "v 0 0 0\nv 1 0 0\nf -1 -2 -3\nv 0 0 1\n",
      3,
      "relative face index -3 reaches before the first vertex (only 2 defined so far)",
      "f -1 -2 -3",
    );
  });

  it("reports the right line number with CRLF line ends", () => {
    expectObjError("v 0 0 0\r\n\r\n# x\r\nv 1 0\r\n", 4, "vertex has 2 numbers", "v 1 0");
  });

  it("truncates long line text in the message to 80 characters", () => {
    const line = `v 1 2 ${"3".repeat(200)}x`;
    const err = thrownMeshwayError(() => parseObj(`${line}\n`, "t.obj"));
    expect(err.code).toBe("OBJ_PARSE");
    const quoted = err.message.slice(err.message.lastIndexOf(': "') + 2);
    expect(quoted).toBe(`"${line.slice(0, 77)}..."`);
    expect(quoted.length).toBe(82);
  });

  it("throws NO_TRIANGLES when there are no faces", () => {
    for (const text of ["", "# nothing\n", "v 0 0 0\nv 1 0 0\nv 0 0 1\nl 1 2\n"]) {
      const err = thrownMeshwayError(() => parseObj(text, "empty.obj"));
      expect(err.code).toBe("NO_TRIANGLES");
      expect(err.message.startsWith("empty.obj: ")).toBe(true);
    }
  });
});

describe("parseObj on the shared fixture meshes", () => {
  /** Independent count: v lines, and triangles from each f line's token count. */
  function countByRegex(text: string): { verts: number; tris: number } {
    const verts = (text.match(/^v\s/gm) ?? []).length;
    let tris = 0;
    for (const m of text.matchAll(/^f\s+(.*)$/gm)) {
      tris += m[1]!.trim().split(/\s+/).length - 2;
    }
    return { verts, tris };
  }

  it.each([
    ["nav_test", 884, 1612],
    ["dungeon", 5101, 10133],
    ["undulating", 2800, 5202],
  ])("%s.obj parses to the independently counted vertices and triangles", (name, v, t) => {
    const text = readFileSync(`${MESH_DIR}${name}.obj`, "utf8");
    const expected = countByRegex(text);
    expect(expected).toEqual({ verts: v, tris: t });
    const m = parseObj(text, `${name}.obj`);
    expect(m.vertexCount).toBe(v);
    expect(m.triangleCount).toBe(t);
    expect(m.positions.length).toBe(3 * v);
    expect(m.indices.length).toBe(3 * t);
    let maxIndex = 0;
    for (const i of m.indices) if (i > maxIndex) maxIndex = i;
    expect(maxIndex).toBeLessThan(v);
    // First vertex matches the file's first v line.
    const first = /^v\s+(\S+)\s+(\S+)\s+(\S+)/m.exec(text)!;
    expect(Array.from(m.positions.slice(0, 3))).toEqual(
      [first[1], first[2], first[3]].map((s) => Math.fround(Number(s))),
    );
  });
});
