/**
 * Catching what a call throws, for tests that inspect the error itself (message, code, offsets)
 * rather than only expect(...).toThrow. Stable API:
 *
 *   thrownMeshwayError(() => parse(bad))   // the MeshwayError thrown (fails the test otherwise)
 *   thrownError(() => save(path, bytes))   // whatever Error was thrown (e.g. a Node errno error)
 *
 * Both fail the test when `fn` returns normally.
 */
import { expect } from "vitest";
import { MeshwayError } from "../../src/errors.js";

/** Runs `fn`, expects it to throw a MeshwayError and returns it. */
export function thrownMeshwayError(fn: () => unknown): MeshwayError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(MeshwayError);
    return e as MeshwayError;
  }
  throw new Error("expected a MeshwayError, nothing was thrown");
}

/** Runs `fn` and returns the error it throws, of any kind. */
export function thrownError(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected an error, nothing was thrown");
}
