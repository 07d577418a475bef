import { MeshwayError } from "../errors.js";

/** Most threads a tile pool may use. */
export const MAX_THREADS = 256;

/** True for a usable thread count: an integer 1..MAX_THREADS. */
export function isThreadCount(threads: unknown): threads is number {
  return (
    typeof threads === "number" &&
    Number.isInteger(threads) &&
    threads >= 1 &&
    threads <= MAX_THREADS
  );
}

/** Throws MeshwayError("INVALID_ARGUMENT") unless `threads` is an integer 1..MAX_THREADS. */
export function checkThreadCount(threads: unknown): number {
  if (!isThreadCount(threads)) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `threads = ${String(threads)}: expected an integer 1..${MAX_THREADS}`,
    );
  }
  return threads;
}
