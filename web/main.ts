/**
 * The explainer page "from cells to faces". It has no lesson logic of its own: every number,
 * table, check and picture comes from src/lesson (runLesson, hitTestLesson, MESSAGES) and
 * src/lesson/pictures.ts (renderLessonSection, whose RGBA pixels go onto the canvases unchanged
 * with putImageData). This file only wires controls to runLesson and results to the DOM.
 *
 * Test hook: <body data-ready> is "false" from the moment a control changes until the
 * recompute has updated every picture, readout, table and check, then "true"; <body
 * data-generation> counts recomputes and <body data-settings> holds the settings drawn.
 */
import {
  DEFAULT_LESSON_SETTINGS,
  fmtRadius,
  hitTestLesson,
  LESSON_RADIUS,
  type LessonLang,
  type LessonMethod,
  type LessonReadout,
  type LessonResult,
  type LessonSettings,
  resolveLessonSettings,
  runLesson,
  t,
  tv,
} from "../src/lesson/index.js";
import { LESSON_LEGEND, lessonPixelToWorld, renderLessonSection } from "../src/lesson/pictures.js";
import type { RgbaImage } from "../src/render/raster.js";
import { isPageMessageKey, pageText } from "./page-messages.js";

type Section = 1 | 2 | 3 | 4;
const SECTIONS: readonly Section[] = [1, 2, 3, 4];

interface SectionView {
  section: Section;
  root: HTMLElement;
  canvas: HTMLCanvasElement;
  context: CanvasRenderingContext2D | null;
  readouts: HTMLDListElement;
  legend: HTMLUListElement;
  tableWrap: HTMLElement;
  /** The section's last picture, redrawn in place on the next recompute. */
  image: RgbaImage | null;
}

const page = {
  lang: "zh" as LessonLang,
  settings: { ...DEFAULT_LESSON_SETTINGS } as LessonSettings,
  result: null as LessonResult | null,
  generation: 0,
  scheduled: false,
  canDraw: true,
  probe: null as { section: Section; px: number; py: number } | null,
};

const body = document.body;
const form = byId<HTMLFormElement>("controls");
const radiusInput = byId<HTMLInputElement>("radius");
const radiusValue = byId<HTMLOutputElement>("radius-value");
const views: SectionView[] = SECTIONS.map((section) => {
  const root = byId<HTMLElement>(`s${section}`);
  const canvas = root.querySelector("canvas")!;
  return {
    section,
    root,
    canvas,
    context: canvas.getContext("2d"),
    readouts: root.querySelector(".readouts dl")!,
    legend: root.querySelector(".legend")!,
    tableWrap: root.querySelector(".table-wrap")!,
    image: null,
  };
});

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`page element #${id} is missing`);
  return el as T;
}

/** Any visible string: page prose from page-messages.ts, the rest from the lesson's MESSAGES. */
function text(key: string, vars?: Record<string, string | number>): string {
  return isPageMessageKey(key) ? pageText(page.lang, key, vars) : t(page.lang, key, vars);
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  content?: string,
  className?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (content !== undefined) node.textContent = content;
  if (className) node.className = className;
  return node;
}

// ---- controls -------------------------------------------------------------------------------

function radioValue(name: string): string {
  return (
    (form.querySelector(`input[name="${name}"]:checked`) as HTMLInputElement | null)?.value ?? ""
  );
}

function readControls(): LessonSettings {
  return {
    radius: Number(radiusInput.value),
    shape: radioValue("shape") as LessonSettings["shape"],
    method: radioValue("method") as LessonSettings["method"],
    view: radioValue("view") as LessonSettings["view"],
  };
}

function writeControls(s: LessonSettings): void {
  radiusInput.value = String(s.radius);
  for (const [name, value] of [
    ["shape", s.shape],
    ["method", s.method],
    ["view", s.view],
  ] as const) {
    const input = form.querySelector(`input[name="${name}"][value="${value}"]`) as HTMLInputElement;
    input.checked = true;
  }
  radiusValue.textContent = fmtRadius(s.radius);
}

/** Marks the page busy now and recomputes once on the next frame (slider drags coalesce). */
function schedule(): void {
  body.dataset.ready = "false";
  if (page.scheduled) return;
  page.scheduled = true;
  requestAnimationFrame(recompute);
}

function recompute(): void {
  page.scheduled = false;
  page.settings = readControls();
  const error = byId<HTMLElement>("error");
  try {
    page.settings = resolveLessonSettings(page.settings);
    page.result = runLesson(page.settings);
    page.generation++;
    error.hidden = true;
  } catch (e) {
    page.result = null;
    error.hidden = false;
    error.textContent = text("page.error", { message: e instanceof Error ? e.message : String(e) });
  }
  renderAll();
  body.dataset.generation = String(page.generation);
  body.dataset.settings = JSON.stringify(page.result?.settings ?? page.settings);
  body.dataset.ready = "true";
}

// ---- rendering ------------------------------------------------------------------------------

function renderAll(): void {
  renderStaticText();
  radiusValue.textContent = fmtRadius(page.settings.radius);
  const result = page.result;
  if (!result) return;
  byId("settings").textContent = text("page.settings", {
    radius: fmtRadius(result.settings.radius),
    shape: text(`page.shape.${result.settings.shape}`),
    method: text(`page.method.${result.settings.method}`),
    view: text(`page.view.${result.settings.view}`),
    generation: page.generation,
  });
  for (const view of views) {
    renderPicture(result, view);
    renderLegend(view);
    renderReadouts(result.readouts[view.section - 1]?.items ?? [], view);
    renderTable(result, view);
  }
  renderChecks(result);
  renderProbe();
}

function renderStaticText(): void {
  const root = document.documentElement;
  root.lang = page.lang === "zh" ? "zh-CN" : "en";
  document.title = text("page.doc.title");
  for (const node of document.querySelectorAll<HTMLElement>("[data-msg]")) {
    node.textContent = text(node.dataset.msg!);
  }
  for (const node of document.querySelectorAll<HTMLElement>("[data-msg-aria-label]")) {
    node.setAttribute("aria-label", text(node.dataset.msgAriaLabel!));
  }
  byId("lang-zh").setAttribute("aria-pressed", String(page.lang === "zh"));
  byId("lang-en").setAttribute("aria-pressed", String(page.lang === "en"));
}

function renderPicture(result: LessonResult, view: SectionView): void {
  if (!view.context) return;
  // The rasterizer's pixels, unchanged: straight-alpha RGBA rows, exactly ImageData's layout.
  const image = renderLessonSection(result, view.section, view.image ?? undefined);
  view.image = image;
  if (view.canvas.width !== image.width) view.canvas.width = image.width;
  if (view.canvas.height !== image.height) view.canvas.height = image.height;
  const pixels = image.data as Uint8ClampedArray<ArrayBuffer>;
  view.context.putImageData(new ImageData(pixels, image.width, image.height), 0, 0);
}

/** The picture's legend: the renderer's own colour for each thing it draws, named in the page language. */
function renderLegend(view: SectionView): void {
  const items = LESSON_LEGEND[view.section].map((entry) => {
    const li = el("li", undefined, `legend-item legend-${entry.kind}`);
    const swatch = el("span", undefined, "swatch");
    const [r, g, b] = entry.colour;
    swatch.style.backgroundColor = `rgb(${r}, ${g}, ${b})`;
    swatch.setAttribute("aria-hidden", "true");
    li.dataset.legend = entry.key;
    li.append(swatch, el("span", text(entry.key)));
    return li;
  });
  view.legend.replaceChildren(...items);
}

function renderReadouts(items: readonly LessonReadout[], view: SectionView): void {
  const nodes: HTMLElement[] = [];
  for (const item of items) {
    const dt = el("dt", text(item.label));
    const dd = el("dd", tv(page.lang, item.value));
    dd.dataset.readout = item.id;
    nodes.push(dt, dd);
  }
  view.readouts.replaceChildren(...nodes);
}

function renderTable(result: LessonResult, view: SectionView): void {
  const data = result.tables[view.section - 1];
  if (!data) {
    view.tableWrap.replaceChildren();
    return;
  }
  const table = el("table");
  table.dataset.table = data.id;
  table.append(el("caption", text(data.title, data.titleVars)));
  const head = el("tr");
  // Columns name every column including the row-label one; pad if only the cells are named.
  const cellCount = data.rows[0]?.cells.length ?? data.columns.length;
  const columns = data.columns.length === cellCount ? ["", ...data.columns] : data.columns;
  for (const key of columns) {
    const th = el("th", key ? text(key) : "");
    th.scope = "col";
    head.append(th);
  }
  const tbody = el("tbody");
  for (const row of data.rows) {
    const tr = el("tr");
    const th = el("th", text(row.label));
    th.scope = "row";
    tr.append(th);
    for (const cell of row.cells) tr.append(el("td", tv(page.lang, cell)));
    tbody.append(tr);
  }
  table.append(el("thead"), tbody);
  table.tHead!.append(head);
  view.tableWrap.replaceChildren(table);
}

function renderChecks(result: LessonResult): void {
  const passed = result.checks.filter((c) => c.pass).length;
  const failed = result.checks.length - passed;
  const summary = byId("checks-summary");
  summary.textContent = `${text("page.checks.summary", { pass: passed, total: result.checks.length })} · ${
    failed === 0 ? text("page.checks.allPass") : text("page.checks.someFail", { fail: failed })
  }`;
  summary.className = failed === 0 ? "pass" : "fail";
  const items = result.checks.map((check) => {
    const li = el("li", undefined, check.pass ? "pass" : "fail");
    li.dataset.check = check.id;
    li.dataset.pass = String(check.pass);
    li.dataset.measured = check.measured;
    li.dataset.expected = check.expected;
    li.append(
      el("span", text(check.pass ? "page.checks.pass" : "page.checks.fail"), "badge"),
      el("span", text(check.label), "label"),
      el("span", text("page.checks.measured", { value: tv(page.lang, check.measured) }), "value"),
      el("span", text("page.checks.expected", { value: tv(page.lang, check.expected) }), "value"),
    );
    return li;
  });
  byId("checks-list").replaceChildren(...items);
  byId("log").textContent = result.log.map((key, i) => text(key, result.logVars[i])).join("\n");
}

function renderProbe(): void {
  const out = byId("probe");
  const probe = page.probe;
  const result = page.result;
  if (!probe || !result) {
    out.textContent = text("page.hover.idle");
    return;
  }
  const sectionName = text(`page.s${probe.section}.title`);
  const world = lessonPixelToWorld(probe.section, probe.px, probe.py);
  if (!world) {
    out.textContent = text("page.hover.outside", {
      section: sectionName,
      outside: text("hover.outside"),
    });
    return;
  }
  const method: LessonMethod = world.panel ?? result.settings.method;
  const hit = hitTestLesson(result, world.x, world.z, method);
  if (probe.section === 1) {
    // Section 1 draws the shape under test, not the scene: report the shape, not cells.
    out.textContent = text("page.hover.shape", {
      section: sectionName,
      x: world.x.toFixed(2),
      z: world.z.toFixed(2),
      where: text(hit.inShape ? "hover.inShape" : "hover.outShape", {
        shape: text(`page.hover.shapeName.${result.settings.shape}`),
      }),
    });
    return;
  }
  out.textContent = text("page.hover.at", {
    section: sectionName,
    panel: text(`page.method.${method}`),
    x: world.x.toFixed(2),
    z: world.z.toFixed(2),
    cell: hit.cell ? text("hover.cell", { i: hit.cell[0], j: hit.cell[1] }) : text("hover.outside"),
    walkable: text(hit.walkable ? "hover.walkable" : "hover.blocked"),
    polygon:
      hit.polygon === null ? text("hover.noPolygon") : text("hover.polygon", { p: hit.polygon }),
  });
}

// ---- wiring ---------------------------------------------------------------------------------

function start(): void {
  radiusInput.min = String(LESSON_RADIUS.min);
  radiusInput.max = String(LESSON_RADIUS.max);
  radiusInput.step = String(LESSON_RADIUS.step);
  writeControls(page.settings);

  page.canDraw = views.every((v) => v.context !== null);
  if (!page.canDraw) {
    byId("fallback").hidden = false;
    // The picture box (canvas + legend) goes as a whole; its CSS display would beat [hidden] on the canvas.
    for (const v of views) (v.canvas.closest(".picture") as HTMLElement).hidden = true;
  }
  body.dataset.canvas = page.canDraw ? "2d" : "none";

  form.addEventListener("submit", (e) => e.preventDefault());
  form.addEventListener("input", () => schedule());
  form.addEventListener("change", () => schedule());
  byId("reset").addEventListener("click", () => {
    writeControls(DEFAULT_LESSON_SETTINGS);
    schedule();
  });
  for (const lang of ["zh", "en"] as const) {
    byId(`lang-${lang}`).addEventListener("click", () => {
      page.lang = lang;
      schedule();
    });
  }
  for (const view of views) {
    view.canvas.addEventListener("pointermove", (e) => {
      // Client → canvas pixels through the content box (the border is not part of the picture).
      const c = view.canvas;
      const box = c.getBoundingClientRect();
      if (c.clientWidth === 0 || c.clientHeight === 0) return;
      page.probe = {
        section: view.section,
        px: ((e.clientX - box.left - c.clientLeft) * c.width) / c.clientWidth,
        py: ((e.clientY - box.top - c.clientTop) * c.height) / c.clientHeight,
      };
      renderProbe();
    });
    view.canvas.addEventListener("pointerleave", () => {
      page.probe = null;
      renderProbe();
    });
  }
  schedule();
}

start();
