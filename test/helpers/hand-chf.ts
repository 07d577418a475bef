/**
 * Compact heightfields (`CompactHeightfield`, what the region builders read) written out by hand,
 * for unit tests of the distance field, region partitioning and contours. Stable API:
 *
 *   makeChf(width, depth, columns, walkableHeight?, walkableClimb?)   // stacked spans per column,
 *                                                     // linked the way Recast's compact build does
 *   floorChf(["##x.", ...])       // one level: '#' walkable, 'x' null area, '.' no span
 *   gridChf([".. 2", ...])        // one level: '.' walkable, 'x' null, '1'..'9' area, ' ' none;
 *                                 // every two neighbouring spans connected
 *   regionGrid(chf, spanRegion)   // region id of each single-span column as rows (-1 = none)
 *
 * Rows are z, characters are x; cell size and cell height are 1.
 */
import {
  type CompactHeightfield,
  NOT_CONNECTED,
  NULL_AREA,
  WALKABLE_AREA,
} from "../../src/generate/types.js";

/** One open span: floor y, clearance h, area id. */
export type SpanSpec = [y: number, h: number, area: number];

const DX = [-1, 0, 1, 0];
const DZ = [0, 1, 0, -1];

/**
 * Hand-built compact heightfield. Neighbour links follow Recast's compact build: the first
 * (lowest) span of the neighbour column whose gap overlaps by >= walkableHeight and whose floor
 * differs by <= walkableClimb.
 */
export function makeChf(
  width: number,
  depth: number,
  columns: SpanSpec[][],
  walkableHeight = 2,
  walkableClimb = 1,
): CompactHeightfield {
  const cellFirst = new Uint32Array(width * depth);
  const cellCount = new Uint16Array(width * depth);
  const flat: SpanSpec[] = [];
  for (let c = 0; c < width * depth; c++) {
    const col = columns[c] ?? [];
    cellFirst[c] = flat.length;
    cellCount[c] = col.length;
    flat.push(...col);
  }
  const n = flat.length;
  const spanY = new Uint16Array(n);
  const spanH = new Uint16Array(n);
  const areas = new Uint8Array(n);
  const spanCon = new Uint32Array(n);
  flat.forEach(([y, h, a], i) => {
    spanY[i] = y;
    spanH[i] = h;
    areas[i] = a;
  });
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const c = x + z * width;
      for (let i = cellFirst[c]!; i < cellFirst[c]! + cellCount[c]!; i++) {
        let con = 0;
        for (let dir = 0; dir < 4; dir++) {
          let link = NOT_CONNECTED;
          const nx = x + DX[dir]!;
          const nz = z + DZ[dir]!;
          if (nx >= 0 && nz >= 0 && nx < width && nz < depth) {
            const nc = nx + nz * width;
            for (let k = 0; k < cellCount[nc]!; k++) {
              const j = cellFirst[nc]! + k;
              const bot = Math.max(spanY[i]!, spanY[j]!);
              const top = Math.min(spanY[i]! + spanH[i]!, spanY[j]! + spanH[j]!);
              if (top - bot >= walkableHeight && Math.abs(spanY[j]! - spanY[i]!) <= walkableClimb) {
                link = k;
                break;
              }
            }
          }
          con |= link << (8 * dir);
        }
        spanCon[i] = con >>> 0;
      }
    }
  }
  return {
    width,
    depth,
    spanCount: n,
    walkableHeightVoxels: walkableHeight,
    walkableClimbVoxels: walkableClimb,
    borderSize: 0,
    bmin: [0, 0, 0],
    bmax: [width, 10, depth],
    cellSize: 1,
    cellHeight: 1,
    cellFirst,
    cellCount,
    spanY,
    spanH,
    spanCon,
    areas,
  };
}

/** Single-level floor from rows (row index = z): '#' walkable, 'x' null area, '.' no span. */
export function floorChf(rows: string[]): CompactHeightfield {
  const depth = rows.length;
  const width = rows[0]!.length;
  const columns: SpanSpec[][] = [];
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const ch = rows[z]![x];
      columns.push(
        ch === "#" ? [[0, 0xffff, WALKABLE_AREA]] : ch === "x" ? [[0, 0xffff, NULL_AREA]] : [],
      );
    }
  }
  return makeChf(width, depth, columns);
}

/** Region id of the single span of each column as rows of numbers (-1 = no span). */
export function regionGrid(chf: CompactHeightfield, spanRegion: Uint16Array): number[][] {
  const out: number[][] = [];
  for (let z = 0; z < chf.depth; z++) {
    const row: number[] = [];
    for (let x = 0; x < chf.width; x++) {
      const c = x + z * chf.width;
      row.push(chf.cellCount[c] === 0 ? -1 : spanRegion[chf.cellFirst[c]!]!);
    }
    out.push(row);
  }
  return out;
}

/**
 * Single-layer compact heightfield from a picture: row r is z = r, character c is x = c.
 * '.' walkable span, 'x' span with NULL_AREA, '1'..'9' span with that area id, ' ' no span.
 * Every two spans in neighbouring columns are connected.
 */
export function gridChf(rows: string[]): CompactHeightfield {
  const depth = rows.length;
  const width = Math.max(...rows.map((r) => r.length));
  const cellFirst = new Uint32Array(width * depth);
  const cellCount = new Uint16Array(width * depth);
  const areaList: number[] = [];
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const ch = rows[z]![x] ?? " ";
      const c = x + z * width;
      cellFirst[c] = areaList.length;
      if (ch === " ") continue;
      cellCount[c] = 1;
      areaList.push(ch === "." ? WALKABLE_AREA : ch === "x" ? NULL_AREA : Number(ch));
    }
  }
  const n = areaList.length;
  const spanCon = new Uint32Array(n);
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const c = x + z * width;
      if (cellCount[c] === 0) continue;
      let con = 0;
      for (let d = 0; d < 4; d++) {
        const nx = x + DX[d]!;
        const nz = z + DZ[d]!;
        const ok = nx >= 0 && nz >= 0 && nx < width && nz < depth && cellCount[nx + nz * width];
        con |= (ok ? 0 : NOT_CONNECTED) << (8 * d);
      }
      spanCon[cellFirst[c]!] = con >>> 0;
    }
  }
  return {
    width,
    depth,
    spanCount: n,
    walkableHeightVoxels: 10,
    walkableClimbVoxels: 4,
    borderSize: 0,
    bmin: [0, 0, 0],
    bmax: [width, 10, depth],
    cellSize: 1,
    cellHeight: 1,
    cellFirst,
    cellCount,
    spanY: new Uint16Array(n),
    spanH: new Uint16Array(n).fill(100),
    spanCon,
    areas: Uint8Array.from(areaList),
  };
}
