/**
 * The explainer page's default state written into its HTML at build time (a Vite plugin in
 * web/vite.config.ts), so that without JavaScript, or without a canvas, the text, the four
 * tables, the readouts and the self-check are there to read. main.ts redraws all of it on
 * start-up from the same lesson code, so the two cannot disagree for long; the browser test
 * reads the no-JavaScript page against `meshway lesson`.
 *
 * The source web/index.html carries the Chinese text of every `data-msg` element already
 * (kept in step by test/unit/page-prerender.test.ts), so headings, links and labels are never
 * empty, for Biome's accessibility rules as for a reader.
 */
import {
  DEFAULT_LESSON_SETTINGS,
  fmt4,
  fmtRadius,
  type LessonResult,
  runLesson,
  t,
  tv,
} from "../src/lesson/index.js";
import { lessonLegend, renderLessonSection } from "../src/lesson/pictures.js";
import { lastPathStep } from "../src/lesson/timeline.js";
import { encodePng } from "../src/node/png.js";
import { isPageMessageKey, type PageLang, pageText } from "./page-messages.js";
import { pageReadoutIds } from "./page-readouts.js";

/** The language the HTML is written in; the other one's result-dependent parts go in a template. */
const LANG: PageLang = "zh";
const OTHER: PageLang = "en";

/** The language the fragment builders below write in (set around each pass). */
let lang: PageLang = LANG;

function text(key: string, vars?: Record<string, string | number>): string {
  return isPageMessageKey(key) ? pageText(lang, key, vars) : t(lang, key, vars);
}

export function escapeHtml(s: string): string {
  return s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** Every `data-msg` element's text and every `data-msg-aria-label` in Chinese. */
export function fillPageText(html: string): string {
  let out = html.replace(
    /<(\w+)((?:\s[^>]*?)?\sdata-msg="([^"]+)"[^>]*)>[^<]*<\/\1>/g,
    (_all, tag: string, attrs: string, key: string) =>
      `<${tag}${attrs}>${escapeHtml(text(key))}</${tag}>`,
  );
  out = out.replace(
    /(\sdata-msg-aria-label="([^"]+)")(?:\saria-label="[^"]*")?/g,
    (_all, attr: string, key: string) => `${attr} aria-label="${escapeHtml(text(key))}"`,
  );
  return out.replace(
    /<title>[^<]*<\/title>/,
    `<title>${escapeHtml(text("page.doc.title"))}</title>`,
  );
}

function tableHtml(result: LessonResult, section: number): string {
  const data = result.tables[section - 1];
  if (!data) return "";
  const head = data.columns.map((k) => `<th scope="col">${escapeHtml(text(k))}</th>`).join("");
  const rows = data.rows
    .map(
      (r) =>
        `<tr><th scope="row">${escapeHtml(text(r.label))}</th>${r.cells
          .map((c) => `<td>${escapeHtml(tv(lang, c))}</td>`)
          .join("")}<td class="means">${escapeHtml(text(r.means))}</td></tr>`,
    )
    .join("");
  return `<table data-table="${data.id}" style="--cols: ${data.columns.length - 1}"><caption>${escapeHtml(
    text(data.title, data.titleVars),
  )}</caption><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

function readoutsHtml(result: LessonResult, section: number): string {
  const shown = pageReadoutIds(section);
  return (result.readouts[section - 1]?.items ?? [])
    .filter((i) => shown.includes(i.id))
    .map(
      (i) =>
        `<dt>${escapeHtml(text(i.label))}</dt><dd data-readout="${i.id}">${escapeHtml(tv(lang, i.value))}</dd>`,
    )
    .join("");
}

function legendHtml(result: LessonResult, section: 1 | 2 | 3 | 4): string {
  return lessonLegend(result, section)
    .map((e) => {
      const [r, g, b] = e.colour;
      return `<li class="legend-item legend-${e.kind}${e.dashed ? " dashed" : ""}" data-legend="${e.key}"><span class="swatch" aria-hidden="true" style="--c: rgb(${r}, ${g}, ${b})"></span><span>${escapeHtml(text(e.key))}</span></li>`;
    })
    .join("");
}

function checksHtml(result: LessonResult): { summary: string; list: string; log: string } {
  const passed = result.checks.filter((c) => c.pass).length;
  const failed = result.checks.length - passed;
  const summary = `${text("page.checks.summary", { pass: passed, total: result.checks.length })} · ${
    failed === 0 ? text("page.checks.allPass") : text("page.checks.someFail", { fail: failed })
  }`;
  const list = result.checks
    .map(
      (c) =>
        `<li class="${c.pass ? "pass" : "fail"}" data-check="${c.id}" data-pass="${c.pass}" data-measured="${escapeHtml(c.measured)}" data-expected="${escapeHtml(c.expected)}"><span class="badge">${escapeHtml(
          text(c.pass ? "page.checks.pass" : "page.checks.fail"),
        )}</span><span class="label">${escapeHtml(text(c.label))}</span><span class="value">${escapeHtml(
          text("page.checks.measured", { value: tv(lang, c.measured) }),
        )}</span><span class="value">${escapeHtml(
          text("page.checks.expected", { value: tv(lang, c.expected) }),
        )}</span></li>`,
    )
    .join("");
  const log = result.log.map((key, i) => text(key, result.logVars[i])).join("\n");
  return { summary, list, log: escapeHtml(log) };
}

/** Replaces the (empty) content of the element with id `id`. */
function fillId(html: string, id: string, content: string): string {
  const re = new RegExp(`(<(\\w+)[^>]*\\sid="${id}"[^>]*>)[\\s\\S]*?(</\\2>)`);
  return html.replace(
    re,
    (_all, open: string, _tag: string, close: string) => `${open}${content}${close}`,
  );
}

/**
 * The default state's result-dependent parts in the current `lang`, by the selector of the
 * element each fills: tables, readouts, legends, probe lines, summary, step and self-check.
 */
function fragments(result: LessonResult): [string, string][] {
  const out: [string, string][] = [];
  for (const n of [1, 2, 3, 4] as const) {
    out.push([`.table-wrap[data-table-for="${n}"]`, tableHtml(result, n)]);
    out.push([`#s${n}-readouts`, readoutsHtml(result, n)]);
    out.push([`#s${n}-legend`, legendHtml(result, n)]);
    out.push([`#probe-${n}`, escapeHtml(text("page.probe.idle"))]);
  }
  const p = result.path;
  const f = p.funnel ?? p.dropped;
  const s = result.surface[result.settings.method];
  out.push([
    "#summary",
    escapeHtml(
      text("page.summary", {
        method: text(`page.methodName.${result.settings.method}`),
        cells: s.voxelWalkable,
        r: fmtRadius(result.settings.radius),
        kept: s.walkable,
        polygons: result.partition.current.polygons.length,
        sequence: p.polygons.length,
        midPoints: p.midpoint.count,
        midLength: fmt4(p.midpoint.length),
        dropPoints: p.dropped.count,
        dropLength: fmt4(p.dropped.length),
        funnelPoints: f.count,
        funnelLength: fmt4(f.length),
        exactLength: p.exact ? fmt4(p.exact.length) : "—",
      }),
    ),
  ]);
  out.push([
    "#step-text",
    escapeHtml(
      text("page.s4.step.done", {
        points: f.count,
        length: fmt4(f.length),
        exact: p.exact ? fmt4(p.exact.length) : "—",
        dropped: fmt4(p.dropped.length),
      }),
    ),
  ]);
  const checks = checksHtml(result);
  out.push(["#checks-summary", escapeHtml(checks.summary)]);
  out.push(["#checks-list", checks.list]);
  out.push(["#log", checks.log]);
  return out;
}

/** Replaces the content of the element `selector` names (#id or .table-wrap[data-table-for]). */
function fill(html: string, selector: string, content: string): string {
  if (selector.startsWith("#")) return fillId(html, selector.slice(1), content);
  const n = /data-table-for="(\d)"/.exec(selector)![1]!;
  return html.replace(
    new RegExp(`(<div class="table-wrap"[^>]*data-table-for="${n}"[^>]*>)(</div>)`),
    (_all, open: string, close: string) => `${open}${content}${close}`,
  );
}

/**
 * The whole default state: page text plus tables, readouts, legends, summary and checks, in
 * Chinese; the same parts in English in `<template id="prerender-en">` (one
 * `<div data-target="selector">` each), so a reader who chose English gets a complete page
 * without waiting for the lesson either (web/main.ts swaps them in).
 */
export function prerenderPage(
  html: string,
  codeRegions: Readonly<Record<string, readonly string[]>> = {},
): string {
  const result = runLesson(DEFAULT_LESSON_SETTINGS);
  lang = LANG;
  let out = fillPageText(html);
  // The code boxes as main.ts fills them (section 4 at its default, last step: the funnel).
  const quote = (...keys: string[]) =>
    escapeHtml(keys.flatMap((k) => (k === "" ? [""] : [...(codeRegions[k] ?? [])])).join("\n"));
  out = fillId(out, "code-1", quote("geometry:cross"));
  out = fillId(out, "code-2", quote("scene:distance", "", "surface:filter"));
  out = fillId(out, "code-3", quote("rectangles:rectangles"));
  out = fillId(out, "code-4", quote("funnel:funnel"));
  for (const [selector, content] of fragments(result)) out = fill(out, selector, content);
  for (const n of [1, 2, 3, 4] as const) {
    // The default picture as the canvas's background: it shows at first paint, before (and
    // without) JavaScript; main.ts later draws the very same pixels onto the canvas.
    const png = Buffer.from(encodePng(renderLessonSection(result, n))).toString("base64");
    out = out.replace(
      new RegExp(`(<section[^>]*\\sid="s${n}"[\\s\\S]*?<canvas)`),
      `$1 style="background-image: url(data:image/png;base64,${png})"`,
    );
  }
  const last = lastPathStep(result.path);
  out = out.replace(
    /(<input type="range" id="step"[^>]*?)\smax="\d+"([^>]*?)\svalue="\d+"/,
    `$1 max="${last}"$2 value="${last}"`,
  );
  out = fillId(out, "step-value", `${last} / ${last}`);
  lang = OTHER;
  const other = fragments(result)
    .map(([selector, content]) => `<div data-target="${escapeHtml(selector)}">${content}</div>`)
    .join("");
  lang = LANG;
  const end = out.lastIndexOf("</body>");
  return `${out.slice(0, end)}<template id="prerender-${OTHER}">${other}</template>\n${out.slice(end)}`;
}
