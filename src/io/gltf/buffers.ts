// A glTF's buffers: the GLB BIN chunk, data URIs, and everything else through the caller's
// resolver (fetch in a browser, the path-guarded file reader in meshway/node).
import { MeshwayError } from "../../errors.js";
import { fail, integer, object, show } from "./json.js";

/**
 * Returns the bytes of an external buffer, given its URI exactly as the glTF JSON spells it
 * (still percent-encoded, relative to the glTF file). `byteLength` is what the buffer declares:
 * a resolver may return only that many bytes (more are ignored, fewer are an error).
 */
export type BufferResolver = (
  uri: string,
  info: { buffer: number; byteLength: number },
) => Uint8Array | ArrayBuffer | Promise<Uint8Array | ArrayBuffer>;

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64_VALUE[B64.charCodeAt(i)] = i;
B64_VALUE[0x2d] = 62; // "-" (base64url)
B64_VALUE[0x5f] = 63; // "_"

/**
 * Base64 (RFC 4648, standard or URL alphabet, padding optional) without Buffer or atob, so it
 * reads the same everywhere; a trailing group of one character (6 bits) carries no byte.
 */
export function decodeBase64(clean: string): Uint8Array {
  let end = clean.length;
  while (end > 0 && clean.charCodeAt(end - 1) === 0x3d /* = */) end--;
  const out = new Uint8Array(Math.floor((end * 6) / 8));
  let bits = 0;
  let acc = 0;
  let k = 0;
  for (let i = 0; i < end; i++) {
    acc = (acc << 6) | B64_VALUE[clean.charCodeAt(i)]!;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[k++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

export function decodeDataUri(uri: string, source: string, path: string): Uint8Array {
  const comma = uri.indexOf(",");
  if (comma < 0) fail(source, `${path} is a data URI without a "," before its data`);
  const header = uri.slice(5, comma);
  const payload = uri.slice(comma + 1);
  if (/;base64$/i.test(header)) {
    const clean = payload.replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/\-_]*={0,2}$/.test(clean))
      fail(source, `${path} is a data URI whose base64 data is malformed`);
    return decodeBase64(clean);
  }
  let text: string;
  try {
    text = decodeURIComponent(payload);
  } catch {
    fail(source, `${path} is a data URI whose percent-encoding is malformed`);
  }
  // One byte per character (its low 8 bits), as Latin-1 text encodes.
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

/** A resolver's answer as bytes, or a located error saying what it returned instead. */
function asBytes(v: unknown, source: string, label: string): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  const what = v === null ? "null" : typeof v === "object" ? "an object" : typeof v;
  fail(
    source,
    `${label}: the buffer resolver returned ${what}; expected a Uint8Array or ArrayBuffer`,
  );
}

export async function loadBuffer(
  buffers: unknown[],
  b: number,
  source: string,
  bin: Uint8Array | null,
  resolve: BufferResolver | null,
  /** What the resolver returned, by URI: a URI named by several buffers is resolved once. */
  resolved: Map<string, Uint8Array> = new Map(),
): Promise<Uint8Array> {
  const path = `buffers[${b}]`;
  const def = object(source, buffers[b], path);
  const byteLength = integer(source, def.byteLength, `${path}.byteLength`, 1);
  const uri = def.uri;
  let data: Uint8Array;
  let label: string;
  if (uri === undefined) {
    if (bin === null)
      fail(source, `${path} has no uri and the file has no GLB BIN chunk to hold it`);
    data = bin;
    label = "the GLB BIN chunk";
  } else if (typeof uri !== "string") {
    fail(source, `${path}.uri is ${show(uri)}; expected a string`);
  } else if (/^data:/i.test(uri)) {
    data = decodeDataUri(uri, source, `${path}.uri`);
    label = `${path} (data URI)`;
  } else {
    label = `${path} "${uri}"`;
    if (resolve === null) {
      fail(
        source,
        `${path} refers to the external file "${uri}", which cannot be resolved from bytes alone (pass a resolveBuffer function)`,
      );
    }
    const known = resolved.get(uri);
    if (known !== undefined && known.byteLength >= byteLength) {
      data = known;
    } else {
      let answer: unknown;
      try {
        answer = await resolve(uri, { buffer: b, byteLength });
      } catch (e) {
        if (e instanceof MeshwayError) throw e;
        fail(source, `${label} could not be read: ${e instanceof Error ? e.message : String(e)}`);
      }
      data = asBytes(answer, source, label);
      resolved.set(uri, data);
    }
  }
  if (data.byteLength < byteLength) {
    fail(
      source,
      `${label} has ${data.byteLength} bytes but ${path}.byteLength declares ${byteLength}`,
    );
  }
  return data.subarray(0, byteLength);
}
