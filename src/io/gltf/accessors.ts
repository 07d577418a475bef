// The accessors a navmesh needs (POSITION and indices): checked against their buffer views and
// buffers, then decoded (strides, sparse substitution, component types).
import { fail, index, integer, isObject, object, show } from "./json.js";
import { COMPRESSION_EXTENSIONS } from "./scene.js";

export const COMPONENT_BYTES: Record<number, number> = {
  5120: 1, // BYTE
  5121: 1, // UNSIGNED_BYTE
  5122: 2, // SHORT
  5123: 2, // UNSIGNED_SHORT
  5125: 4, // UNSIGNED_INT
  5126: 4, // FLOAT
};
export const FLOAT = 5126;
/** Positions: FLOAT, or the integer types KHR_mesh_quantization allows. */
export const POSITION_TYPES = [5126, 5120, 5121, 5122, 5123];
export const INDEX_TYPES = [5121, 5123, 5125];

export interface Decoded {
  array: ArrayLike<number>;
  /** Positions as numbers in model units (dequantised); null for index accessors. */
  positions: ArrayLike<number> | null;
}

export interface ViewInfo {
  buffer: number;
  bufferLength: number;
  byteOffset: number;
  byteLength: number;
  stride: number | undefined;
}

export function checkBufferView(
  bufferViews: unknown[],
  v: number,
  buffers: unknown[],
  source: string,
  sparse: boolean,
  from: string,
): ViewInfo {
  index(source, v, from, bufferViews.length, "bufferViews");
  const path = `bufferViews[${v}]`;
  const def = object(source, bufferViews[v], path);
  const buffer = index(source, def.buffer, `${path}.buffer`, buffers.length, "buffers");
  const bdef = object(source, buffers[buffer], `buffers[${buffer}]`);
  const bufferLength = integer(source, bdef.byteLength, `buffers[${buffer}].byteLength`, 1);
  const byteOffset = integer(source, def.byteOffset, `${path}.byteOffset`, 0, 0);
  const byteLength = integer(source, def.byteLength, `${path}.byteLength`, 1);
  if (isObject(def.extensions)) {
    // Declared on the view alone (not in extensionsUsed), its bytes are still compressed.
    for (const name of COMPRESSION_EXTENSIONS) {
      if (name in def.extensions) {
        fail(
          source,
          `${path} uses ${name} (compressed geometry), which meshway does not decode; export or convert it without mesh compression`,
        );
      }
    }
  }
  let stride: number | undefined;
  if (def.byteStride !== undefined) {
    stride = integer(source, def.byteStride, `${path}.byteStride`, 1);
    if (stride > 252) fail(source, `${path}.byteStride is ${stride}; expected at most 252`);
    if (sparse) fail(source, `${path} holds sparse accessor data and must not have a byteStride`);
  }
  if (byteOffset + byteLength > bufferLength) {
    fail(
      source,
      `${path} covers bytes ${byteOffset}..${byteOffset + byteLength} but buffers[${buffer}] has ${bufferLength}`,
    );
  }
  return { buffer, bufferLength, byteOffset, byteLength, stride };
}

/** Where a checked accessor's values are and how they are laid out. */
export interface AccessorPlan {
  /** JSON path, for messages. */
  path: string;
  componentType: number;
  /** 3 for POSITION (VEC3), 1 for indices (SCALAR). */
  components: number;
  count: number;
  normalized: boolean;
  /** The base values' buffer view, or -1 (all zero, sparse values only). */
  view: number;
  byteOffset: number;
  /** Bytes from one element to the next. */
  stride: number;
  sparse: {
    count: number;
    indicesView: number;
    indicesOffset: number;
    indicesType: number;
    valuesView: number;
    valuesOffset: number;
  } | null;
}

/** Checks an accessor used as POSITION or indices against the views it reads; returns its plan. */
export function checkAccessor(
  accessors: unknown[],
  a: number,
  role: "POSITION" | "indices",
  source: string,
  useView: (
    v: number,
    path: string,
    sparse: boolean,
  ) => { length: number; stride: number | undefined },
): AccessorPlan {
  const path = `accessors[${a}]`;
  const def = object(source, accessors[a], path);
  const componentType = def.componentType;
  const allowed = role === "POSITION" ? POSITION_TYPES : INDEX_TYPES;
  if (typeof componentType !== "number" || !allowed.includes(componentType)) {
    fail(
      source,
      `${path}.componentType is ${show(componentType)}; ${role} accessors need one of ${allowed.join(", ")}`,
    );
  }
  const type = role === "POSITION" ? "VEC3" : "SCALAR";
  if (def.type !== type)
    fail(source, `${path}.type is ${show(def.type)}; ${role} accessors must be ${type}`);
  const count = integer(source, def.count, `${path}.count`, 1);
  const byteOffset = integer(source, def.byteOffset, `${path}.byteOffset`, 0, 0);
  if (def.normalized !== undefined && typeof def.normalized !== "boolean") {
    fail(source, `${path}.normalized is ${show(def.normalized)}; expected true or false`);
  }
  const normalized = def.normalized === true && role === "POSITION" && componentType !== FLOAT;
  const components = type === "VEC3" ? 3 : 1;
  const elementBytes = COMPONENT_BYTES[componentType]! * components;
  const out: AccessorPlan = {
    path,
    componentType,
    components,
    count,
    normalized,
    view: -1,
    byteOffset,
    stride: elementBytes,
    sparse: null,
  };
  if (def.bufferView !== undefined) {
    const v = def.bufferView as number;
    const view = useView(v, `${path}.bufferView`, false);
    const stride = view.stride ?? elementBytes;
    if (stride < elementBytes) {
      fail(
        source,
        `${path} has ${elementBytes}-byte elements but bufferViews[${v}].byteStride is ${stride}`,
      );
    }
    const end = byteOffset + stride * (count - 1) + elementBytes;
    if (end > view.length) {
      fail(
        source,
        `${path} needs ${end} bytes (count ${count}, offset ${byteOffset}, stride ${stride}) but bufferViews[${v}] has ${view.length}`,
      );
    }
    out.view = v;
    out.stride = stride;
  }
  if (def.sparse !== undefined) {
    const sp = object(source, def.sparse, `${path}.sparse`);
    const n = integer(source, sp.count, `${path}.sparse.count`, 1);
    if (n > count)
      fail(source, `${path}.sparse.count is ${n}, more than the accessor's count ${count}`);
    const ix = object(source, sp.indices, `${path}.sparse.indices`);
    const ixType = ix.componentType;
    if (typeof ixType !== "number" || !INDEX_TYPES.includes(ixType)) {
      fail(
        source,
        `${path}.sparse.indices.componentType is ${show(ixType)}; expected one of ${INDEX_TYPES.join(", ")}`,
      );
    }
    const vals = object(source, sp.values, `${path}.sparse.values`);
    const parts = [
      { def: ix, name: "indices", bytes: COMPONENT_BYTES[ixType]! * n },
      { def: vals, name: "values", bytes: elementBytes * n },
    ];
    const placed: { view: number; offset: number }[] = [];
    for (const part of parts) {
      const ppath = `${path}.sparse.${part.name}`;
      const v = part.def.bufferView as number;
      const view = useView(v, `${ppath}.bufferView`, true);
      // Its own byteOffset (default 0), never the accessor's.
      const off = integer(source, part.def.byteOffset, `${ppath}.byteOffset`, 0, 0);
      if (off + part.bytes > view.length) {
        fail(
          source,
          `${ppath} needs ${off + part.bytes} bytes but bufferViews[${v}] has ${view.length}`,
        );
      }
      placed.push({ view: v, offset: off });
    }
    out.sparse = {
      count: n,
      indicesView: placed[0]!.view,
      indicesOffset: placed[0]!.offset,
      indicesType: ixType,
      valuesView: placed[1]!.view,
      valuesOffset: placed[1]!.offset,
    };
  }
  return out;
}

type ComponentArray =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Uint32Array
  | Float32Array;

function componentArray(componentType: number, length: number): ComponentArray {
  switch (componentType) {
    case 5120:
      return new Int8Array(length);
    case 5121:
      return new Uint8Array(length);
    case 5122:
      return new Int16Array(length);
    case 5123:
      return new Uint16Array(length);
    case 5125:
      return new Uint32Array(length);
    default:
      return new Float32Array(length);
  }
}

/** Reads one little-endian component of `componentType` at byte `at`. */
function readComponent(dv: DataView, componentType: number, at: number): number {
  switch (componentType) {
    case 5120:
      return dv.getInt8(at);
    case 5121:
      return dv.getUint8(at);
    case 5122:
      return dv.getInt16(at, true);
    case 5123:
      return dv.getUint16(at, true);
    case 5125:
      return dv.getUint32(at, true);
    default:
      return dv.getFloat32(at, true);
  }
}

/** `count` elements of `components` values each, `stride` bytes apart, into `out` from `outAt`. */
function readElements(
  bytes: Uint8Array,
  componentType: number,
  byteOffset: number,
  stride: number,
  count: number,
  components: number,
  out: ComponentArray,
): void {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = COMPONENT_BYTES[componentType]!;
  let k = 0;
  for (let i = 0; i < count; i++) {
    const at = byteOffset + i * stride;
    for (let c = 0; c < components; c++) out[k++] = readComponent(dv, componentType, at + c * size);
  }
}

/**
 * An accessor's values as stored (glTF 2.0 §3.6.2: strided elements, then the sparse entries
 * substituted at their indices), in a typed array of its component type. `viewBytes(v)` is
 * buffer view v's bytes. Sparse indices must be below the accessor's count.
 */
export function decodeAccessor(
  plan: AccessorPlan,
  viewBytes: (v: number) => Uint8Array,
  source: string,
): ComponentArray {
  const { componentType, components, count } = plan;
  const out = componentArray(componentType, count * components);
  if (plan.view >= 0) {
    const bytes = viewBytes(plan.view);
    readElements(bytes, componentType, plan.byteOffset, plan.stride, count, components, out);
  }
  const sp = plan.sparse;
  if (sp !== null) {
    const at = componentArray(sp.indicesType, sp.count);
    const ixBytes = viewBytes(sp.indicesView);
    const ixSize = COMPONENT_BYTES[sp.indicesType]!;
    readElements(ixBytes, sp.indicesType, sp.indicesOffset, ixSize, sp.count, 1, at);
    const values = componentArray(componentType, sp.count * components);
    const elementBytes = COMPONENT_BYTES[componentType]! * components;
    const valBytes = viewBytes(sp.valuesView);
    readElements(
      valBytes,
      componentType,
      sp.valuesOffset,
      elementBytes,
      sp.count,
      components,
      values,
    );
    for (let k = 0; k < sp.count; k++) {
      const i = at[k]!;
      if (i >= count) {
        fail(
          source,
          `${plan.path}.sparse.indices[${k}] is ${i}; expected an index below the accessor's count ${count}`,
        );
      }
      for (let c = 0; c < components; c++) out[i * components + c] = values[k * components + c]!;
    }
  }
  return out;
}

/** Positions in model units: as stored, or dequantised when the accessor is normalized. */
export function toFloat(
  array: ArrayLike<number>,
  componentType: number,
  normalized: boolean,
): ArrayLike<number> {
  if (!normalized) return array;
  const out = new Float64Array(array.length);
  const scale =
    componentType === 5121
      ? 255
      : componentType === 5123
        ? 65535
        : componentType === 5120
          ? 127
          : 32767;
  const signed = componentType === 5120 || componentType === 5122;
  for (let i = 0; i < array.length; i++) {
    const v = array[i]! / scale;
    out[i] = signed && v < -1 ? -1 : v;
  }
  return out;
}
