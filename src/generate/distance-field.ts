import { int32View } from "./region-common.js";
import { type BuildScratch, sharedBuildScratch } from "./scratch.js";
import type { CompactHeightfield, DistanceField } from "./types.js";

/**
 * Distance of every span to the nearest border, in half-cells: 2 per straight step, 3 per
 * diagonal step. A border span is one with fewer than four connected neighbours of its own
 * area (distance 0). Two-pass chamfer transform followed by a 3×3 box blur of spans farther
 * than one cell, as in Recast's rcBuildDistanceField (Mononen). `maxDistance` is the largest
 * distance before the blur, as Recast reports it.
 */
export function buildDistanceField(
  chf: CompactHeightfield,
  scratch: BuildScratch = sharedBuildScratch,
): DistanceField {
  const n = chf.spanCount;
  const src = scratch.uint16("distance", n);
  // Column of each span, so later passes can run over spans instead of (mostly empty) columns.
  const spanCol = scratch.int32("spanColumn", n);
  // One function per pass: each loop is optimized (on-stack) on its own, and none runs on
  // after the previous loop's optimized code bailed out at its exit (a cold first build).
  const ordered = forwardPass(chf, src, spanCol);
  // The backward pass needs spans in descending column order: span order itself when the
  // columns are laid out in order (as the compact build makes them), else an explicit list.
  const order = ordered ? null : columnOrder(chf, scratch.int32("spanOrder", n));
  const maxDistance = backwardPass(chf, src, spanCol, order);
  return { dist: boxBlur(chf, src, spanCol, 1), maxDistance };
}

/**
 * Forward pass (rows ascending): border spans 0, the others relaxed from -x, -x-z, -z, +x-z;
 * records each span's column. Returns whether the columns' spans lie in column order.
 */
function forwardPass(chf: CompactHeightfield, src: Uint16Array, spanCol: Int32Array): boolean {
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
      spanCol[i] = c;
      const s = con[i]!;
      const a = areas[i]!;
      const k0 = s & 0xff;
      const k1 = (s >> 8) & 0xff;
      const k2 = (s >> 16) & 0xff;
      const k3 = s >>> 24;
      if (
        k0 === 0xff ||
        k1 === 0xff ||
        k2 === 0xff ||
        k3 === 0xff ||
        areas[cellFirst[c - 1]! + k0] !== a ||
        areas[cellFirst[c + w]! + k1] !== a ||
        areas[cellFirst[c + 1]! + k2] !== a ||
        areas[cellFirst[c - w]! + k3] !== a
      ) {
        src[i] = 0;
        continue;
      }
      // -x, then its -z neighbour.
      let ai = cellFirst[c - 1]! + k0;
      let v = src[ai]! + 2;
      let kd = con[ai]! >>> 24;
      if (kd !== 0xff) {
        const t = src[cellFirst[c - 1 - w]! + kd]! + 3;
        if (t < v) v = t;
      }
      // -z, then its +x neighbour.
      ai = cellFirst[c - w]! + k3;
      let t = src[ai]! + 2;
      if (t < v) v = t;
      kd = (con[ai]! >> 16) & 0xff;
      if (kd !== 0xff) {
        t = src[cellFirst[c - w + 1]! + kd]! + 3;
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
function backwardPass(
  chf: CompactHeightfield,
  src: Uint16Array,
  spanCol: Int32Array,
  order: Int32Array | null,
): number {
  const w = chf.width;
  const n = chf.spanCount;
  const cellFirst = int32View(chf.cellFirst);
  const con = int32View(chf.spanCon);
  let maxDistance = 0;
  for (let j = n - 1; j >= 0; j--) {
    const i = order === null ? j : order[j]!;
    let v = src[i]!;
    if (v === 0) continue;
    const c = spanCol[i]!;
    const s = con[i]!;
    // +x, then its +z neighbour.
    let ai = cellFirst[c + 1]! + ((s >> 16) & 0xff);
    let t = src[ai]! + 2;
    if (t < v) v = t;
    let kd = (con[ai]! >> 8) & 0xff;
    if (kd !== 0xff) {
      t = src[cellFirst[c + 1 + w]! + kd]! + 3;
      if (t < v) v = t;
    }
    // +z, then its -x neighbour.
    ai = cellFirst[c + w]! + ((s >> 8) & 0xff);
    t = src[ai]! + 2;
    if (t < v) v = t;
    kd = con[ai]! & 0xff;
    if (kd !== 0xff) {
      t = src[cellFirst[c + w - 1]! + kd]! + 3;
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
function boxBlur(
  chf: CompactHeightfield,
  src: Uint16Array,
  spanCol: Int32Array,
  threshold: number,
): Uint16Array {
  const w = chf.width;
  const cellFirst = int32View(chf.cellFirst);
  const con = int32View(chf.spanCon);
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
    const c = spanCol[i]!;
    const s = con[i]!;
    let d = cd;
    // -x, then +z from there.
    let ai = cellFirst[c - 1]! + (s & 0xff);
    d += src[ai]!;
    let kd = (con[ai]! >> 8) & 0xff;
    d += kd !== 0xff ? src[cellFirst[c - 1 + w]! + kd]! : cd;
    // +z, then +x.
    ai = cellFirst[c + w]! + ((s >> 8) & 0xff);
    d += src[ai]!;
    kd = (con[ai]! >> 16) & 0xff;
    d += kd !== 0xff ? src[cellFirst[c + w + 1]! + kd]! : cd;
    // +x, then -z.
    ai = cellFirst[c + 1]! + ((s >> 16) & 0xff);
    d += src[ai]!;
    kd = con[ai]! >>> 24;
    d += kd !== 0xff ? src[cellFirst[c + 1 - w]! + kd]! : cd;
    // -z, then -x.
    ai = cellFirst[c - w]! + (s >>> 24);
    d += src[ai]!;
    kd = con[ai]! & 0xff;
    d += kd !== 0xff ? src[cellFirst[c - w - 1]! + kd]! : cd;
    dst[i] = ((d + 5) / 9) | 0;
  }
  return dst;
}
