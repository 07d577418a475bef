/**
 * Top-down view: world XZ → pixels. +x goes right and +z goes down (looking down the -Y axis
 * with -Z at the top of the picture), one uniform scale so shapes keep their aspect.
 */

/** An XZ rectangle in world units. */
export interface BoundsXZ {
  minX: number;
  minZ: number;
  maxX: number;
  maxZ: number;
}

export interface TopDownView {
  /** Image size in pixels. */
  width: number;
  height: number;
  /** Pixels per world unit. */
  scale: number;
  /** Pixel position of world x = 0 / z = 0. */
  offsetX: number;
  offsetY: number;
}

/**
 * Fits `bounds` into a width × height image leaving at least `margin` pixels on every side,
 * centred on the axis with room to spare. Empty or degenerate bounds get a unit extent.
 */
export function fitView(bounds: BoundsXZ, width: number, height: number, margin = 0): TopDownView {
  const [minX, maxX] = span(bounds.minX, bounds.maxX);
  const [minZ, maxZ] = span(bounds.minZ, bounds.maxZ);
  const availW = Math.max(1, width - 2 * margin);
  const availH = Math.max(1, height - 2 * margin);
  const scale = Math.min(availW / (maxX - minX), availH / (maxZ - minZ));
  return {
    width,
    height,
    scale,
    offsetX: (width - (maxX - minX) * scale) / 2 - minX * scale,
    offsetY: (height - (maxZ - minZ) * scale) / 2 - minZ * scale,
  };
}

/**
 * A view whose longer side is `size` pixels and whose shorter side follows the bounds' aspect
 * (both including `margin` pixels on each side).
 */
export function viewForSize(bounds: BoundsXZ, size: number, margin = 0): TopDownView {
  const [minX, maxX] = span(bounds.minX, bounds.maxX);
  const [minZ, maxZ] = span(bounds.minZ, bounds.maxZ);
  const dx = maxX - minX;
  const dz = maxZ - minZ;
  const inner = Math.max(1, size - 2 * margin);
  const width =
    dx >= dz ? size : Math.max(1, Math.min(size, Math.ceil((inner * dx) / dz + 2 * margin)));
  const height =
    dz > dx ? size : Math.max(1, Math.min(size, Math.ceil((inner * dz) / dx + 2 * margin)));
  return fitView({ minX, minZ, maxX, maxZ }, width, height, margin);
}

/** Pixel x of world x. */
export function viewX(view: TopDownView, x: number): number {
  return view.offsetX + x * view.scale;
}

/** Pixel y of world z. */
export function viewY(view: TopDownView, z: number): number {
  return view.offsetY + z * view.scale;
}

/** Union of two XZ bounds (either may be empty: min > max). */
export function unionBounds(a: BoundsXZ, b: BoundsXZ): BoundsXZ {
  return {
    minX: Math.min(a.minX, b.minX),
    minZ: Math.min(a.minZ, b.minZ),
    maxX: Math.max(a.maxX, b.maxX),
    maxZ: Math.max(a.maxZ, b.maxZ),
  };
}

/** The empty bounds (union identity). */
export function emptyBounds(): BoundsXZ {
  return { minX: Infinity, minZ: Infinity, maxX: -Infinity, maxZ: -Infinity };
}

/** A finite, non-empty interval: empty → [0, 1], a point → [p - 0.5, p + 0.5]. */
function span(min: number, max: number): [number, number] {
  if (!(min <= max) || !Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (max - min < 1e-9) return [min - 0.5, max + 0.5];
  return [min, max];
}
