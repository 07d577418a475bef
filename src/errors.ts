/** Machine-readable error codes. Callers switch on `code`; the message is for people. */
export type MeshwayErrorCode =
  /** A file or buffer is malformed (the message names the file and the place). */
  | "INVALID_INPUT"
  /** A build option is unknown or out of range. */
  | "INVALID_CONFIG"
  /** An OBJ file does not parse (the message names the line). */
  | "OBJ_PARSE"
  /** The voxel grid would be larger than `maxVoxels`. */
  | "GRID_TOO_LARGE"
  /** The input holds no triangle to build from. */
  | "NO_TRIANGLES"
  /** A function was called with a value outside its contract. */
  | "INVALID_ARGUMENT"
  /** A worker could not start (missing script) or died while building. */
  | "WORKER_FAILED";

/** The one error type meshway throws. `code` says what kind of problem; the message says where. */
export class MeshwayError extends Error {
  readonly code: MeshwayErrorCode;
  constructor(code: MeshwayErrorCode, message: string) {
    super(message);
    this.name = "MeshwayError";
    this.code = code;
  }
}
