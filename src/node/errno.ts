/**
 * A file system error as the few words a user needs ("no such file", "permission denied" …),
 * the one wording every loader and the CLI use. `expected` names what should have been at the
 * path when it is a directory ("a file", "a navmesh file"); writes name the usual causes.
 */
export function describeFsError(
  e: unknown,
  op: "read" | "write" = "read",
  expected = "a file",
): string {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (op === "read") {
    if (code === "ENOENT") return "no such file";
    if (code === "EISDIR") return `is a directory, expected ${expected}`;
  } else {
    if (code === "EISDIR") return "is a directory";
    // EEXIST: mkdir met a file on the way.
    if (code === "ENOTDIR" || code === "EEXIST") return "a parent of this path is not a directory";
  }
  return `cannot ${op} (${code ?? (e instanceof Error ? e.message : String(e))})`;
}
