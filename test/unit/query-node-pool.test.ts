import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { encodePolyRef } from "../../src/navmesh/poly-ref.js";
import { NODE_CLOSED, NodePool, NodeQueue, NULL_NODE } from "../../src/query/node-pool.js";

describe("NodePool", () => {
  it("hands out one node per ref, in creation order, initialised empty", () => {
    const pool = new NodePool(8);
    const a = encodePolyRef(1, 3, 7);
    const b = encodePolyRef(4095, 1048575, 1048575); // the largest ref
    expect(pool.getNode(a)).toBe(0);
    expect(pool.getNode(b)).toBe(1);
    expect(pool.getNode(a)).toBe(0);
    expect(pool.count).toBe(2);
    expect(pool.ref[1]).toBe(b);
    expect(pool.parent[1]).toBe(NULL_NODE);
    expect(pool.flags[1]).toBe(0);
    expect(pool.findNode(b)).toBe(1);
    expect(pool.findNode(encodePolyRef(1, 3, 8))).toBe(NULL_NODE);
  });

  it("returns NULL_NODE for a new ref when full but still finds existing nodes", () => {
    const pool = new NodePool(3);
    for (let i = 0; i < 3; i++) expect(pool.getNode(encodePolyRef(1, 1, i))).toBe(i);
    expect(pool.getNode(encodePolyRef(1, 1, 3))).toBe(NULL_NODE);
    expect(pool.getNode(encodePolyRef(1, 1, 2))).toBe(2);
    expect(pool.count).toBe(3);
  });

  it("clear() forgets every node and resets fields of reused slots", () => {
    const pool = new NodePool(4);
    const r = encodePolyRef(2, 5, 9);
    const i = pool.getNode(r);
    pool.flags[i] = NODE_CLOSED;
    pool.cost[i] = 5;
    pool.clear();
    expect(pool.count).toBe(0);
    expect(pool.findNode(r)).toBe(NULL_NODE);
    const j = pool.getNode(encodePolyRef(2, 5, 10));
    expect(j).toBe(0);
    expect(pool.flags[j]).toBe(0);
    expect(pool.cost[j]).toBe(0);
    expect(pool.findNode(r)).toBe(NULL_NODE);
  });

  it("keeps refs that differ only in salt or tile apart (hash collisions resolved)", () => {
    const pool = new NodePool(4096);
    const refs: number[] = [];
    for (let salt = 1; salt < 9; salt++) {
      for (let tile = 0; tile < 16; tile++) {
        for (let poly = 0; poly < 32; poly++) refs.push(encodePolyRef(salt, tile, poly));
      }
    }
    for (const [i, r] of refs.entries()) expect(pool.getNode(r)).toBe(i);
    for (const [i, r] of refs.entries()) expect(pool.findNode(r)).toBe(i);
    expect(pool.count).toBe(refs.length);
  });

  it("keeps one node per (ref, state): a polygon entered across tile sides has several", () => {
    const pool = new NodePool(8);
    const r = encodePolyRef(1, 2, 5);
    const a = pool.getNode(r);
    const b = pool.getNode(r, 2);
    expect(b).not.toBe(a);
    expect(pool.state[b]).toBe(2);
    expect(pool.findNode(r, 2)).toBe(b);
    expect(pool.findNode(r, 3)).toBe(NULL_NODE);
    expect(pool.getNode(r)).toBe(a);
    // A stale ref on the same slot and polygon (other salt) gets its own node too.
    const stale = encodePolyRef(2, 2, 5);
    const c = pool.getNode(stale, 2);
    expect(new Set([a, b, c]).size).toBe(3);
    expect(pool.findNode(stale, 2)).toBe(c);
    pool.clear();
    expect(pool.findNode(r, 2)).toBe(NULL_NODE);
    expect(pool.findNode(stale, 2)).toBe(NULL_NODE);
    expect(pool.getNode(stale, 2)).toBe(0);
  });

  it("rejects sizes outside [1, 2^24] with MeshwayError naming the range", () => {
    for (const n of [0, -1, 1.5, Number.NaN, 2 ** 24 + 1, 2 ** 31, 2 ** 40]) {
      expect(() => new NodePool(n)).toThrow(MeshwayError);
      expect(() => new NodePool(n)).toThrow(
        /NodePool maxNodes .* must be an integer in \[1, 2\^24\]/,
      );
      expect(() => new NodeQueue(n)).toThrow(
        /NodeQueue capacity .* must be an integer in \[1, 2\^24\]/,
      );
    }
  });
});

describe("NodeQueue", () => {
  it("pops nodes in increasing key order (heap sort of 500 pseudo-random keys)", () => {
    const q = new NodeQueue(500);
    const keys: number[] = [];
    let s = 12345;
    for (let i = 0; i < 500; i++) {
      s = (s * 1103515245 + 12345) % 2147483648;
      keys.push(s / 2147483648);
      q.push(i, keys[i]!);
    }
    expect(q.size).toBe(500);
    const order: number[] = [];
    while (!q.empty()) order.push(q.pop());
    const expected = keys.map((k, i) => [k, i] as const).sort((a, b) => a[0] - b[0]);
    expect(order.map((i) => keys[i])).toEqual(expected.map((e) => e[0]));
    expect(q.pop()).toBe(-1);
  });

  it("modify() moves a node up or down and queues an absent one", () => {
    const q = new NodeQueue(8);
    q.push(0, 5);
    q.push(1, 3);
    q.push(2, 8);
    q.modify(2, 1); // decrease: now first
    expect(q.peek()).toBe(2);
    q.modify(2, 10); // increase: now last
    q.modify(4, 4); // absent: pushed
    expect(q.contains(4)).toBe(true);
    const order: number[] = [];
    while (!q.empty()) order.push(q.pop());
    expect(order).toEqual([1, 4, 0, 2]);
    expect(q.contains(4)).toBe(false);
  });

  it("clear() empties the queue so nodes can be pushed again", () => {
    const q = new NodeQueue(4);
    q.push(0, 1);
    q.push(1, 2);
    q.clear();
    expect(q.empty()).toBe(true);
    expect(q.contains(0)).toBe(false);
    q.push(1, 7);
    q.push(0, 9);
    expect(q.pop()).toBe(1);
  });
});
