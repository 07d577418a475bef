import { Box3, BufferAttribute, type BufferGeometry, Sphere } from "three";

/**
 * Writes `data` into the geometry's attribute `name` in place when it fits the attribute's
 * capacity (then only the used part is drawn), else gives it a larger attribute; the geometry
 * object stays the same either way, so meshes and scene graph keep their references.
 * Returns true when an attribute was replaced (GPU buffers must then be re-created).
 */
export function writeAttribute(
  geometry: BufferGeometry,
  name: string,
  data: Float32Array,
  itemSize: number,
): boolean {
  const old = geometry.getAttribute(name) as BufferAttribute | undefined;
  if (old !== undefined && old.itemSize === itemSize && old.array.length >= data.length) {
    (old.array as Float32Array).set(data);
    old.needsUpdate = true;
    return false;
  }
  // Room to grow, so a rebuilt tile a little larger than before does not reallocate again.
  const capacity = Math.max(data.length, Math.ceil((data.length * 1.25) / itemSize) * itemSize);
  const array = new Float32Array(capacity);
  array.set(data);
  geometry.setAttribute(name, new BufferAttribute(array, itemSize));
  return true;
}

/** Same for the index buffer. */
export function writeIndex(geometry: BufferGeometry, data: Uint32Array): boolean {
  const old = geometry.index;
  if (old !== null && old.array instanceof Uint32Array && old.array.length >= data.length) {
    old.array.set(data);
    old.needsUpdate = true;
    return false;
  }
  const array = new Uint32Array(Math.max(data.length, Math.ceil((data.length * 1.25) / 3) * 3));
  array.set(data);
  geometry.setIndex(new BufferAttribute(array, 1));
  return true;
}

/**
 * Fills a geometry with positions (3 per vertex), colours (4 per vertex, 0..1) and optional
 * indices, in place, and sets its draw range and bounds to the data written.
 */
export function fillGeometry(
  geometry: BufferGeometry,
  positions: Float32Array,
  colours: Float32Array,
  indices?: Uint32Array,
): void {
  let replaced = writeAttribute(geometry, "position", positions, 3);
  replaced = writeAttribute(geometry, "color", colours, 4) || replaced;
  if (indices !== undefined) replaced = writeIndex(geometry, indices) || replaced;
  // Replaced attributes leave their GPU buffers behind until the geometry is disposed;
  // disposing drops them and the renderer uploads the new ones on the next frame.
  if (replaced) geometry.dispose();
  geometry.setDrawRange(0, indices !== undefined ? indices.length : positions.length / 3);
  computeBounds(geometry, positions);
}

/** Bounding box and sphere of the written positions only (not the spare capacity), for culling. */
function computeBounds(geometry: BufferGeometry, positions: Float32Array): void {
  const box = geometry.boundingBox ?? new Box3();
  box.setFromArray(positions);
  geometry.boundingBox = box;
  geometry.boundingSphere = box.getBoundingSphere(geometry.boundingSphere ?? new Sphere());
}
