/**
 * The lines of a source file between `// #region name` and the next `// #endregion`,
 * dedented: how the page quotes src/lesson code verbatim beside its pictures.
 */
export function codeRegion(source: string, name: string): string[] {
  const lines = source.split("\n");
  const from = lines.findIndex((l) => l.trim().startsWith(`// #region ${name}`));
  const to = lines.findIndex((l, i) => i > from && l.trim() === "// #endregion");
  if (from < 0 || to < 0) return [];
  const body = lines.slice(from + 1, to);
  const indents = body.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length);
  const indent = indents.length ? Math.min(...indents) : 0;
  return body.map((l) => l.slice(indent));
}
