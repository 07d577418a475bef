/** Machine-readable error codes. Callers switch on `code`; the message is for people. */
export type MeshwayErrorCode =
  | "INVALID_INPUT"
  | "INVALID_CONFIG"
  | "OBJ_PARSE"
  | "GRID_TOO_LARGE"
  | "NO_TRIANGLES"
  | "INVALID_ARGUMENT"
  /** A build's worker thread died (crashed, ran out of memory, was terminated). */
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
