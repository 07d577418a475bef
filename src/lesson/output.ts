import { t, tv } from "./i18n.js";
import type { LessonLang } from "./settings.js";
import { lastPathStep } from "./timeline.js";
import type { LessonResult, LessonTable } from "./types.js";

/** Display width of a string: CJK and full-width characters count as two columns. */
function width(s: string): number {
  let w = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    w +=
      (c >= 0x1100 && c <= 0x115f) ||
      (c >= 0x2e80 && c <= 0xa4cf) ||
      (c >= 0xac00 && c <= 0xd7a3) ||
      (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xfe30 && c <= 0xfe4f) ||
      (c >= 0xff00 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6) ||
      (c >= 0x2460 && c <= 0x24ff)
        ? 2
        : 1;
  }
  return w;
}

function pad(s: string, w: number): string {
  return s + " ".repeat(Math.max(0, w - width(s)));
}

/** One table's header and rows as translated strings. */
function tableText(
  table: LessonTable,
  lang: LessonLang,
): { title: string; head: string[]; rows: string[][] } {
  return {
    title: t(lang, table.title, table.titleVars),
    head: table.columns.map((c) => t(lang, c)),
    rows: table.rows.map((r) => [
      t(lang, r.label),
      ...r.cells.map((c) => tv(lang, c)),
      t(lang, r.means),
    ]),
  };
}

function escapeMd(s: string): string {
  return s.replace(/\|/g, "\\|");
}

/**
 * The four tables and the self-check in `lang`, as aligned plain text or Markdown: what
 * `meshway lesson` prints. Cell strings are the result's own (the page shows the same ones).
 */
export function formatLessonTables(
  result: LessonResult,
  lang: LessonLang,
  as: "text" | "markdown",
): string {
  const out: string[] = [];
  for (const table of result.tables) {
    const { title, head, rows } = tableText(table, lang);
    if (as === "markdown") {
      out.push(`### ${title}`, "");
      out.push(`| ${head.map(escapeMd).join(" | ")} |`);
      out.push(`| ${head.map(() => "---").join(" | ")} |`);
      for (const r of rows) out.push(`| ${r.map(escapeMd).join(" | ")} |`);
      out.push("");
    } else {
      const widths = head.map((h, k) => Math.max(width(h), ...rows.map((r) => width(r[k] ?? ""))));
      out.push(title);
      out.push(
        head
          .map((h, k) => pad(h, widths[k]!))
          .join("  ")
          .trimEnd(),
      );
      out.push(widths.map((w) => "-".repeat(w)).join("  "));
      for (const r of rows)
        out.push(
          r
            .map((c, k) => pad(c, widths[k]!))
            .join("  ")
            .trimEnd(),
        );
      out.push("");
    }
  }
  const passed = result.checks.filter((c) => c.pass).length;
  const summary = t(lang, "check.summary", { passed, total: result.checks.length });
  out.push(as === "markdown" ? `### ${summary}` : summary);
  if (as === "markdown") out.push("");
  for (const c of result.checks) {
    const mark = c.pass ? t(lang, "check.pass") : t(lang, "check.fail");
    const line = `${mark}  ${t(lang, c.label)}: ${t(lang, "check.measured")} ${tv(lang, c.measured)}; ${t(lang, "check.expected")} ${tv(lang, c.expected)}`;
    out.push(as === "markdown" ? `- ${escapeMd(line)}` : `  ${line}`);
  }
  return `${out.join("\n")}\n`;
}

/**
 * The result as one JSON-ready object (`meshway lesson --json`): settings, the four tables
 * (title/column/row message keys with their English text; cells exactly as in the result),
 * readouts, checks and the log. Language-independent apart from the English labels and the
 * `lang` fields: `text` (cells, readout value, log line) and `measuredText`/`expectedText`
 * spell the values in `lang` (--lang) as the page shows them.
 */
export function lessonToJson(result: LessonResult, lang: LessonLang = "zh"): object {
  const en = (key: string, vars?: Record<string, string>) => t("en", key, vars);
  const p = result.path;
  return {
    lang,
    settings: result.settings,
    tables: result.tables.map((tb) => ({
      id: tb.id,
      title: tb.title,
      titleEn: en(tb.title, tb.titleVars),
      titleVars: tb.titleVars,
      columns: tb.columns,
      columnsEn: tb.columns.map((c) => en(c)),
      rows: tb.rows.map((r) => ({
        label: r.label,
        labelEn: en(r.label),
        cells: r.cells,
        text: r.cells.map((c) => tv(lang, c)),
        means: r.means,
        meansEn: en(r.means),
        meansText: t(lang, r.means),
      })),
    })),
    readouts: result.readouts.map((s) => ({
      section: s.section,
      items: s.items.map((i) => ({
        id: i.id,
        label: i.label,
        labelEn: en(i.label),
        value: i.value,
        text: tv(lang, i.value),
      })),
    })),
    checks: result.checks.map((c) => ({
      ...c,
      labelEn: en(c.label),
      measuredText: tv(lang, c.measured),
      expectedText: tv(lang, c.expected),
    })),
    passed: result.checks.every((c) => c.pass),
    path: {
      method: p.method,
      status: p.status,
      polygons: p.polygons,
      settled: p.settled,
      final: p.final,
      midpoint: Array.from(p.midpoint.points),
      dropped: Array.from(p.dropped.points),
      funnel: p.funnel ? Array.from(p.funnel.points) : null,
      exact: p.exact ? Array.from(p.exact.points) : null,
      exactStatus: p.exactStatus,
      lastStep: lastPathStep(p),
    },
    log: result.log.map((key, i) => ({
      key,
      vars: result.logVars[i],
      en: en(key, result.logVars[i]),
      text: t(lang, key, result.logVars[i]),
    })),
  };
}
