import { int32View, leaveSpanNeighbours } from "./region-common.js";
import { type BuildScratch, sharedBuildScratch } from "./scratch.js";
import type { CompactHeightfield, DistanceField } from "./types.js";

/**
 * Distance of every span to the nearest border, in half-cells: 2 per straight step, 3 per
 * diagonal step. A border span is one with fewer than four connected neighbours of its own
 * area (distance 0). Two-pass chamfer transform followed by a 3×3 box blur of spans farther
 * than one cell, as in Recast's rcBuildDistanceField (Mononen). `maxDistance` is the largest
 * distance before the blur, as Recast reports it.
 *
 * On its way it builds the span neighbour table (region-common's buildSpanNeighbours) in
 * `scratch` and leaves it there for the watershed, which would otherwise build it again.
 */
export function buildDistanceField(
  chf: CompactHeightfield,
  scratch: BuildScratch = sharedBuildScratch,
): DistanceField {
  const n = chf.spanCount;
  const src = scratch.uint16("distance", n);
  const nei = scratch.int32("neighbours", n * 4);
  // One function per pass: each loop is optimized (on-stack) on its own, and none runs on
  // after the previous loop's optimized code bailed out at its exit (a cold first build).
  const ordered = forwardPass(chf, src, nei);
  leaveSpanNeighbours(chf, scratch, nei, ordered);
  // The backward pass needs spans in descending column order: span order itself when the
  // columns are laid out in order (as the compact build makes them), else an explicit list.
  const order = ordered ? null : columnOrder(chf, scratch.int32("spanOrder", n));
  const maxDistance = backwardPass(src, nei, order);
  return { dist: boxBlur(src, nei, 1), maxDistance };
}

/**
 * Forward pass (rows ascending): border spans 0, the others relaxed from -x, -x-z, -z, +x-z;
 * fills the neighbour table `nei` (4 per span, -1 when not connected), whose entries for
 * earlier columns the relaxation reads. Returns whether the columns' spans lie in column order.
 */
function forwardPass(chf: CompactHeightfield, src: Uint16Array, nei: Int32Array): boolean {
  const { width: w, cellCount, areas } = chf;
  const cellFirst = int32View(chf.cellFirst);
  const con = int32View(chf.spanCon);
  const columns = w * chf.depth;
  let ordered = true;
  let next = 0;
  // A span's start value depends only on areas, so marking it on arrival is the same as a
  // separate marking pass. Non-border spans have all four neighbours.
  for (let c = 0; c < columns; c++) {
    const count = cellCount[c]!;
    if (count === 0) continue;
    const first = cellFirst[c]!;
    const end = first + count;
    if (first !== next) ordered = false;
    next = end;
    for (let i = first; i < end; i++) {
      const s = con[i]!;
      const a = areas[i]!;
      const o = i * 4;
      let k = s & 0xff;
      const n0 = k === 0xff ? -1 : cellFirst[c - 1]! + k;
      k = (s >> 8) & 0xff;
      const n1 = k === 0xff ? -1 : cellFirst[c + w]! + k;
      k = (s >> 16) & 0xff;
      const n2 = k === 0xff ? -1 : cellFirst[c + 1]! + k;
      k = s >>> 24;
      const n3 = k === 0xff ? -1 : cellFirst[c - w]! + k;
      nei[o] = n0;
      nei[o + 1] = n1;
      nei[o + 2] = n2;
      nei[o + 3] = n3;
      if (
        n0 < 0 ||
        n1 < 0 ||
        n2 < 0 ||
        n3 < 0 ||
        areas[n0] !== a ||
        areas[n1] !== a ||
        areas[n2] !== a ||
        areas[n3] !== a
      ) {
        src[i] = 0;
        continue;
      }
      // -x, then its -z neighbour (both in earlier columns, so already in the table).
      let v = src[n0]! + 2;
      let d = nei[n0 * 4 + 3]!;
      if (d >= 0) {
        const t = src[d]! + 3;
        if (t < v) v = t;
      }
      // -z, then its +x neighbour.
      let t = src[n3]! + 2;
      if (t < v) v = t;
      d = nei[n3 * 4 + 2]!;
      if (d >= 0) {
        t = src[d]! + 3;
        if (t < v) v = t;
      }
      src[i] = v;
    }
  }
  return ordered;
}

/** Every span index in column order (for span layouts not already in that order). */
function columnOrder(chf: CompactHeightfield, order: Int32Array): Int32Array {
  const { cellCount } = chf;
  const cellFirst = int32View(chf.cellFirst);
  const columns = chf.width * chf.depth;
  let k = 0;
  for (let c = 0; c < columns; c++) {
    const end = cellFirst[c]! + cellCount[c]!;
    for (let i = cellFirst[c]!; i < end; i++) order[k++] = i;
  }
  return order;
}

/** Backward pass (rows descending): relax from +x, +x+z, +z, -x+z; returns the maximum. */
function backwardPass(src: Uint16Array, nei: Int32Array, order: Int32Array | null): number {
  const n = src.length;
  let maxDistance = 0;
  for (let j = n - 1; j >= 0; j--) {
    const i = order === null ? j : order[j]!;
    let v = src[i]!;
    if (v === 0) continue;
    // v > 0: not a border span, so all four straight neighbours exist.
    const o = i * 4;
    // +x, then its +z neighbour.
    let ai = nei[o + 2]!;
    let t = src[ai]! + 2;
    if (t < v) v = t;
    let d = nei[ai * 4 + 1]!;
    if (d >= 0) {
      t = src[d]! + 3;
      if (t < v) v = t;
    }
    // +z, then its -x neighbour.
    ai = nei[o + 1]!;
    t = src[ai]! + 2;
    if (t < v) v = t;
    d = nei[ai * 4]!;
    if (d >= 0) {
      t = src[d]! + 3;
      if (t < v) v = t;
    }
    src[i] = v;
    if (v > maxDistance) maxDistance = v;
  }
  return maxDistance;
}

/**
 * 3×3 box blur (each straight neighbour, then the one reached from it by turning clockwise);
 * a missing diagonal counts as the centre value. Spans within `threshold` cells of a border
 * keep their distance so borders stay sharp. Each span is independent, so any order works.
 */
function boxBlur(src: Uint16Array, nei: Int32Array, threshold: number): Uint16Array {
  const n = src.length;
  const dst = new Uint16Array(n);
  const thr = threshold * 2;
  for (let i = 0; i < n; i++) {
    const cd = src[i]!;
    if (cd <= thr) {
      dst[i] = cd;
      continue;
    }
    // cd > 0: not a border span, so all four straight neighbours exist.
    const o = i * 4;
    let d = cd;
    // -x, then +z from there.
    let ai = nei[o]!;
    d += src[ai]!;
    let k = nei[ai * 4 + 1]!;
    d += k >= 0 ? src[k]! : cd;
    // +z, then +x.
    ai = nei[o + 1]!;
    d += src[ai]!;
    k = nei[ai * 4 + 2]!;
    d += k >= 0 ? src[k]! : cd;
    // +x, then -z.
    ai = nei[o + 2]!;
    d += src[ai]!;
    k = nei[ai * 4 + 3]!;
    d += k >= 0 ? src[k]! : cd;
    // -z, then -x.
    ai = nei[o + 3]!;
    d += src[ai]!;
    k = nei[ai * 4]!;
    d += k >= 0 ? src[k]! : cd;
    dst[i] = ((d + 5) / 9) | 0;
  }
  return dst;
}
