import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { findShortestPath } from "../../src/query/shortest-path/find-shortest-path.js";
import { navMeshFor, twoSquaresTile } from "../helpers/hand-tile.js";

function setup() {
  const nm = navMeshFor(4, 2);
  const a = nm.addTile(twoSquaresTile());
  return { nm, a, b: a + 1 };
}

/** Runs f, expecting MeshwayError INVALID_ARGUMENT whose message matches `message`. */
function expectInvalid(f: () => unknown, message: RegExp): void {
  let thrown: unknown = null;
  try {
    f();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(MeshwayError);
  expect((thrown as MeshwayError).code).toBe("INVALID_ARGUMENT");
  expect((thrown as MeshwayError).message).toMatch(message);
}

const BAD_NODE_COUNTS = [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, 2 ** 40];

describe("query node limits", () => {
  it("regression: new NavMeshQuery(nm, { maxNodes: 0 }) threw a RangeError; now MeshwayError naming [1, 2^24]", () => {
    const { nm } = setup();
    for (const maxNodes of BAD_NODE_COUNTS) {
      expectInvalid(
        () => new NavMeshQuery(nm, { maxNodes }),
        /NavMeshQuery maxNodes .* must be an integer in \[1, 2\^24\]/,
      );
    }
    expect(new NavMeshQuery(nm, { maxNodes: 1 }).nodePool.maxNodes).toBe(1);
    expect(new NavMeshQuery(nm, { maxNodes: 2 ** 10 }).nodePool.maxNodes).toBe(2 ** 10);
  });

  it("regression: findPath and computePath with maxNodes 2^31 threw a RangeError while growing the pool", () => {
    const { nm, a, b } = setup();
    const q = new NavMeshQuery(nm, { maxNodes: 16 });
    const f = new QueryFilter();
    for (const maxNodes of BAD_NODE_COUNTS) {
      expectInvalid(
        () => q.findPath(a, b, [1, 0, 1], [3, 0, 1], f, [], undefined, maxNodes),
        /findPath maxNodes .* \[1, 2\^24\]/,
      );
      expectInvalid(
        () => q.computePath([1, 0, 1], [3, 0, 1], { maxNodes }),
        /computePath maxNodes .* \[1, 2\^24\]/,
      );
      expectInvalid(
        () => findShortestPath(q, [1, 0, 1], [3, 0, 1], { maxNodes }),
        /findShortestPath maxNodes .* \[1, 2\^26\]/,
      );
    }
    // A valid larger limit still grows the pool, and the search still answers.
    expect(q.findPath(a, b, [1, 0, 1], [3, 0, 1], f, [], undefined, 64).status).toBe("complete");
    expect(q.nodePool.maxNodes).toBe(64);
    expect(q.computePath([1, 0, 1], [3, 0, 1], { maxNodes: 1 }).status).not.toBe("noStart");
  });

  it("one point check: null, short and non-finite points name the query and the argument", () => {
    const { nm, a, b } = setup();
    const q = new NavMeshQuery(nm);
    const f = new QueryFilter();
    const bad = [null as unknown as number[], [1, 0], [1, Number.NaN, 1]];
    for (const p of bad) {
      expectInvalid(() => q.findPath(a, b, p, [3, 0, 1], f), /findPath startPos .* finite/);
      expectInvalid(() => q.computePath([1, 0, 1], p), /computePath end .* finite/);
      expectInvalid(() => q.findNearestPoly(p, [1, 1, 1]), /findNearestPoly center .* finite/);
      expectInvalid(() => q.raycast(a, [1, 0, 1], p), /raycast end .* finite/);
    }
    expectInvalid(
      () => q.findNearestPoly([1, 0, 1], [1, -1, 1]),
      /findNearestPoly halfExtents .* negative/,
    );
  });
});
