/**
 * The explainer page "from cells to faces". It has no lesson logic of its own: every number,
 * table, check and picture comes from src/lesson (runLesson, hitTestLesson, MESSAGES) and
 * src/lesson/pictures.ts (renderLessonSection, whose RGBA pixels go onto the canvases unchanged
 * with putImageData). This file only wires controls to runLesson and results to the DOM.
 *
 * Test hook: <body data-ready> is "false" from the moment a control changes until the
 * recompute has updated every picture, readout, table and check, then "true"; <body
 * data-settings> holds the settings drawn, <body data-render-ms> the last recompute's time.
 */

import { CODE_REGIONS } from "virtual:lesson-code";
import {
  DEFAULT_LESSON_SETTINGS,
  fmt4,
  fmtRadius,
  hitTestLesson,
  LESSON_CORNER,
  LESSON_RADIUS,
  LESSON_RADIUS_STEPS,
  type LessonLang,
  type LessonReadout,
  type LessonResult,
  type LessonSettings,
  prepareLesson,
  resolveLessonSettings,
  runLesson,
  t,
  tv,
} from "../src/lesson/index.js";
import {
  LESSON_CANVAS,
  lessonLegend,
  lessonPixelToWorld,
  lessonWorldToPixel,
  renderLessonSection,
} from "../src/lesson/pictures.js";
import { distanceToObstacles, LESSON_SCENE } from "../src/lesson/scene.js";
import { radiusAt, radiusIndex } from "../src/lesson/settings.js";
import { funnelRecord, lastPathStep, pathStepAt } from "../src/lesson/timeline.js";
import { isPageMessageKey, pageText } from "./page-messages.js";
import { pageReadoutIds } from "./page-readouts.js";

type Section = 1 | 2 | 3 | 4;
const SECTIONS: readonly Section[] = [1, 2, 3, 4];
const LANG_KEY = "meshway.lesson.lang";

interface SectionView {
  section: Section;
  root: HTMLElement;
  canvas: HTMLCanvasElement;
  context: CanvasRenderingContext2D | null;
  cursor: HTMLElement;
  probe: HTMLElement;
  readouts: HTMLDListElement;
  legend: HTMLUListElement;
  tableWrap: HTMLElement;
  /** The section's recent pictures by settings key, most recent first (revisits draw nothing). */
  images: { key: string; image: ImageData }[];
  /** The settings the picture was drawn for: an unchanged key skips the redraw. */
  drawn: string;
  /** What the legend, readouts and table show now (content + language): unchanged skips the DOM. */
  shown: { legend: string; readouts: string; table: string };
}

/** Pictures kept per section: a few radii, methods and steps back and forth. */
const IMAGES_KEPT = 8;

const page = {
  lang: "zh" as LessonLang,
  settings: { ...DEFAULT_LESSON_SETTINGS } as LessonSettings,
  result: null as LessonResult | null,
  scheduled: false,
  canDraw: true,
  /** The probed point per section, in picture pixels (mouse, touch or keyboard cursor). */
  probes: new Map<Section, { px: number; py: number }>(),
  /** Section 4's start and goal (dragged on the picture). */
  start: DEFAULT_LESSON_SETTINGS.start,
  goal: DEFAULT_LESSON_SETTINGS.goal,
  /** Which end is being dragged, if any. */
  dragging: null as "start" | "goal" | null,
  /** Section 4's start or goal carried by the keyboard cursor (Enter picks up and drops). */
  carrying: null as "start" | "goal" | null,
  /** When the input that the pending recompute answers arrived (performance.now()). */
  inputAt: null as number | null,
};

const body = document.body;
const radiusInput = byId<HTMLInputElement>("radius");
const radiusValue = byId<HTMLOutputElement>("radius-value");
const stepInput = byId<HTMLInputElement>("step");
const cornerX = byId<HTMLInputElement>("corner-x");
const cornerZ = byId<HTMLInputElement>("corner-z");
const stepValue = byId<HTMLOutputElement>("step-value");
const views: SectionView[] = SECTIONS.map((section) => {
  const root = byId<HTMLElement>(`s${section}`);
  const canvas = root.querySelector("canvas")!;
  return {
    section,
    root,
    canvas,
    context: canvas.getContext("2d"),
    cursor: root.querySelector<HTMLElement>(".cursor")!,
    probe: byId(`probe-${section}`),
    readouts: root.querySelector(".readouts dl")!,
    legend: root.querySelector(".legend")!,
    tableWrap: root.querySelector(".table-wrap")!,
    images: [],
    drawn: "",
    shown: { legend: "", readouts: "", table: "" },
  };
});
/** Language and content the static text and the checks were last written for. */
const shown = { lang: "", checks: "" };

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

// ---- language -------------------------------------------------------------------------------

/** ?lang=en|zh wins, then the reader's last choice, then Chinese (the lesson's language). */
function initialLang(): LessonLang {
  const q = new URLSearchParams(location.search).get("lang");
  if (q === "en" || q === "zh") return q;
  try {
    const saved = localStorage.getItem(LANG_KEY);
    if (saved === "en" || saved === "zh") return saved;
  } catch {
    // Storage can be disabled (file://, privacy settings): the default is fine.
  }
  return "zh";
}

function chooseLang(lang: LessonLang): void {
  page.lang = lang;
  try {
    localStorage.setItem(LANG_KEY, lang);
  } catch {
    // Not remembered; the URL still says it.
  }
  const url = new URL(location.href);
  url.searchParams.set("lang", lang);
  try {
    history.replaceState(null, "", url);
  } catch {
    // file:// pages may refuse; the choice still applies to this view.
  }
  schedule();
}

// ---- controls -------------------------------------------------------------------------------

function radioValue(name: string): string {
  return (
    (document.querySelector(`input[name="${name}"]:checked`) as HTMLInputElement | null)?.value ??
    ""
  );
}

function readControls(): LessonSettings {
  const max = Number(stepInput.max);
  const raw = Number(stepInput.value);
  // The slider's right end is "the last step", whatever the timeline's length becomes.
  const step = raw >= max ? -1 : raw;
  return {
    radius: Number(radiusInput.value),
    shape: radioValue("shape") as LessonSettings["shape"],
    method: radioValue("method") as LessonSettings["method"],
    view: step === 0 ? "midpoint" : "straight",
    step,
    start: page.start,
    goal: page.goal,
    corner: [Number(cornerX.value), Number(cornerZ.value)],
  };
}

function writeControls(s: LessonSettings): void {
  radiusInput.value = String(s.radius);
  for (const [name, value] of [
    ["shape", s.shape],
    ["method", s.method],
  ] as const) {
    const input = document.querySelector(
      `input[name="${name}"][value="${value}"]`,
    ) as HTMLInputElement;
    input.checked = true;
  }
  radiusValue.textContent = fmtRadius(s.radius);
  stepInput.value = s.step < 0 ? stepInput.max : String(s.step);
  page.start = s.start;
  page.goal = s.goal;
  cornerX.value = String(s.corner[0]);
  cornerZ.value = String(s.corner[1]);
}

/** Marks the page busy now and recomputes once on the next frame (slider drags coalesce). */
function schedule(): void {
  body.dataset.ready = "false";
  page.inputAt ??= performance.now();
  if (page.scheduled) return;
  page.scheduled = true;
  requestAnimationFrame(recompute);
}

function recompute(): void {
  const t0 = performance.now();
  performance.mark("lesson:recompute");
  page.scheduled = false;
  page.settings = readControls();
  prefetched.add(`${radiusIndex(page.settings.radius)}:${page.settings.method}`);
  const error = byId<HTMLElement>("error");
  try {
    page.settings = resolveLessonSettings(page.settings);
    page.result = runLesson(page.settings);
    error.hidden = true;
  } catch (e) {
    page.result = null;
    error.hidden = false;
    error.textContent = text("page.error", { message: e instanceof Error ? e.message : String(e) });
  }
  renderAll();
  body.dataset.settings = JSON.stringify(page.result?.settings ?? page.settings);
  const t1 = performance.now();
  body.dataset.renderMs = (t1 - t0).toFixed(1);
  // From the first input of this recompute to its end: the frame wait and any idle work included.
  body.dataset.latencyMs = (t1 - (page.inputAt ?? t0)).toFixed(1);
  // The first full render, counted from the navigation's start (HTML, script and all).
  body.dataset.firstMs ??= t1.toFixed(1);
  page.inputAt = null;
  performance.mark("lesson:ready");
  body.dataset.ready = "true";
  prefetchSoon();
}

// ---- idle work: the radii around the current one, before the reader asks -------------------

/** Yields to the browser (a task, not a frame: paint and input get their turn between pieces). */
const channel = new MessageChannel();
const afterYield: (() => void)[] = [];
channel.port1.onmessage = () => afterYield.shift()?.();
function yieldTask(f: () => void): void {
  afterYield.push(f);
  channel.port2.postMessage(null);
}

/** Runs `job` in pieces of about `sliceMs`, yielding between them; `done` after the last. */
function runSliced(job: Iterator<void>, sliceMs: number, done: () => void): void {
  const slice = () => {
    const t0 = performance.now();
    while (performance.now() - t0 < sliceMs) {
      if (job.next().done) {
        done();
        return;
      }
    }
    yieldTask(slice);
  };
  yieldTask(slice);
}

let prefetchQueued = false;
/** The idle job under way: the lesson's pieces for one radius, then its pictures. */
let prefetchJob: Iterator<void> | null = null;

type Idle = (f: (deadline: { timeRemaining(): number }) => void) => void;
const idle: Idle =
  typeof requestIdleCallback === "function"
    ? (f) => requestIdleCallback(f, { timeout: 2000 })
    : (f) => setTimeout(() => f({ timeRemaining: () => 8 }), 50);

/**
 * When the page is idle, computes the nearest radius not yet computed, a piece at a time
 * (meshway's build, the toy's partition, a path, one picture), so an input arriving meanwhile
 * waits for one piece at most, never for a whole radius.
 */
function prefetchSoon(): void {
  if (prefetchQueued || !page.result) return;
  prefetchQueued = true;
  idle((deadline) => {
    prefetchQueued = false;
    if (page.scheduled || !page.result) return;
    prefetchJob ??= nextPrefetchJob(page.result.settings);
    if (!prefetchJob) return;
    do {
      if (prefetchJob.next().done) {
        prefetchJob = null;
        break;
      }
    } while (deadline.timeRemaining() > 4 && !page.scheduled);
    prefetchSoon();
  });
}

/**
 * The next idle job for the reader's likely next move from `s`, as a sliced job; null when all
 * are done. First meshway's build for each voxel radius not built yet (its erosion rounds the
 * radius up to whole cells, so three builds serve all 26 radii and a build is the largest single
 * piece), then the other method at this radius, then the nearest radii either way.
 */
function nextPrefetchJob(s: LessonSettings): Iterator<void> | null {
  const here = radiusIndex(s.radius);
  builtVoxels.add(voxelsOf(here));
  const near: number[] = [];
  for (let d = 1; d < LESSON_RADIUS_STEPS; d++) {
    for (const k of [here + d, here - d]) if (k >= 0 && k < LESSON_RADIUS_STEPS) near.push(k);
  }
  const build = near.find((k) => !builtVoxels.has(voxelsOf(k)));
  if (build !== undefined) {
    builtVoxels.add(voxelsOf(build));
    prefetched.add(`${build}:${s.method}`);
    return prepareLesson({ ...s, radius: radiusAt(build) });
  }
  const other: LessonSettings = { ...s, method: s.method === "simple" ? "meshway" : "simple" };
  const candidates: [LessonSettings, boolean][] = [[other, page.canDraw]];
  for (const k of near) {
    // The next two radii either way get their pictures too; the rest only their numbers.
    const pictures = Math.abs(k - here) <= 2 && page.canDraw;
    candidates.push([{ ...s, radius: radiusAt(k) }, pictures]);
  }
  for (const [at, pictures] of candidates) {
    const k = radiusIndex(at.radius);
    const key = `${k}:${at.method}${pictures ? `:${JSON.stringify(at)}` : ""}`;
    if (prefetched.has(key)) continue;
    prefetched.add(key);
    return (function* () {
      yield* prepareLesson(at);
      if (!pictures) return;
      const result = runLesson(at);
      for (const view of views.slice(1)) {
        yield;
        prefetchPicture(result, view);
      }
    })();
  }
  return null;
}

/** Voxel radii whose meshway build is done or under way (see nextPrefetchJob). */
const builtVoxels = new Set<number>();
/** meshway's walkable radius in voxels at radius index `k` (the radius rounded up to cells). */
const voxelsOf = (k: number): number => Math.ceil(radiusAt(k) / LESSON_SCENE.cellSize - 1e-9);

/** Draws `result`'s picture of `view` into its cache (second place: the shown one stays first). */
function prefetchPicture(result: LessonResult, view: SectionView): void {
  const key = pictureKey(result.settings, view.section);
  if (view.images.some((i) => i.key === key)) return;
  const image = renderLessonSection(result, view.section);
  const pixels = image.data as Uint8ClampedArray<ArrayBuffer>;
  view.images.splice(1, 0, { key, image: new ImageData(pixels, image.width, image.height) });
  if (view.images.length > IMAGES_KEPT) view.images.pop();
}
const prefetched = new Set<string>();

// ---- rendering ------------------------------------------------------------------------------

function renderAll(): void {
  renderStaticText();
  radiusValue.textContent = fmtRadius(page.settings.radius);
  byId("corner-x-value").textContent = page.settings.corner[0].toFixed(2);
  byId("corner-z-value").textContent = page.settings.corner[1].toFixed(2);
  // The corner belongs to the L: its sliders rest while the square is shown.
  cornerX.disabled = cornerZ.disabled = page.settings.shape !== "L";
  const result = page.result;
  if (!result) return;
  renderStepper(result);
  renderSummary(result);
  for (const view of views) {
    renderPicture(result, view);
    renderLegend(result, view);
    const shownIds = pageReadoutIds(view.section);
    const items = result.readouts[view.section - 1]?.items ?? [];
    renderReadouts(
      items.filter((i) => shownIds.includes(i.id)),
      view,
    );
    renderTable(result, view);
    renderProbe(view);
  }
  renderChecks(result);
}

function renderStaticText(): void {
  if (shown.lang === page.lang) return;
  shown.lang = page.lang;
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

/** The live sentence of the key numbers under the lede (the seed's summary). */
function renderSummary(result: LessonResult): void {
  const s = result.surface[result.settings.method];
  const p = result.path;
  const f = p.funnel ?? p.dropped;
  byId("summary").textContent = text("page.summary", {
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
  });
}

function renderStepper(result: LessonResult): void {
  const p = result.path;
  const last = lastPathStep(p);
  stepInput.max = String(last);
  const at = pathStepAt(p, result.settings.view === "midpoint" ? 0 : result.settings.step);
  stepInput.value = String(at.step);
  stepValue.textContent = `${at.step} / ${last}`;
  byId<HTMLButtonElement>("step-prev").disabled = at.step === 0;
  byId<HTMLButtonElement>("step-next").disabled = at.step === last;
  byId("step-text").textContent = stepSentence(result, at);
  renderCode(result, at);
}

const xz = (x: number, z: number) => `(${x.toFixed(2)}, ${z.toFixed(2)})`;

function stepSentence(result: LessonResult, at: ReturnType<typeof pathStepAt>): string {
  const p = result.path;
  if (at.phase === "midpoint")
    return text("page.s4.step.midpoint", {
      points: p.midpoint.count,
      length: fmt4(p.midpoint.length),
    });
  if (at.phase === "drop") {
    const d = p.drops;
    const ok = d.dropped[at.index] === 1;
    const stalled = at.index === d.count - 1 && !ok;
    return `${text("page.s4.step.drop", {
      step: at.step,
      k: at.index + 1,
      n: d.count,
      point: d.tested[at.index]!,
      prev: d.prev[at.index]!,
      next: d.next[at.index]!,
      verdict: text(ok ? "page.s4.step.dropYes" : "page.s4.step.dropNo"),
    })}${stalled ? ` ${text("page.s4.step.stall", { kept: p.dropped.count, points: p.midpoint.count })}` : ""}`;
  }
  if (at.phase === "funnel") {
    const r = funnelRecord(p, at.index);
    const portals = p.portals.length / 4 + 1;
    const portal = Math.min(r.portal + 1, portals);
    if (at.index > 0 && r.fixed > funnelRecord(p, at.index - 1).fixed) {
      // The edges crossed: the teaching moment is the bend at a wall corner, not the ends.
      return text("page.s4.step.bend", {
        step: at.step,
        portal,
        portals,
        apex: xz(r.apex[0], r.apex[1]),
        fixed: r.fixed,
      });
    }
    return text("page.s4.step.funnel", {
      step: at.step,
      portal,
      portals,
      apex: xz(r.apex[0], r.apex[1]),
      left: xz(r.left[0], r.left[1]),
      right: xz(r.right[0], r.right[1]),
      fixed: r.fixed,
    });
  }
  const f = p.funnel ?? p.dropped;
  return text("page.s4.step.done", {
    points: f.count,
    length: fmt4(f.length),
    exact: p.exact ? fmt4(p.exact.length) : "—",
    dropped: fmt4(p.dropped.length),
  });
}

/** A quoted region (web/vite.config.ts cuts them out of src/lesson at build time). */
const region = (key: string): readonly string[] => CODE_REGIONS[key] ?? [];
const CODE = { drop: region("funnel:drop"), funnel: region("funnel:funnel") };

/** Sections 1–3's code boxes: what their pictures run, quoted once at start-up. */
function renderStaticCode(): void {
  const boxes: [string, readonly string[]][] = [
    ["code-1", region("geometry:cross")],
    ["code-2", [...region("scene:distance"), "", ...region("surface:filter")]],
    ["code-3", region("rectangles:rectangles")],
  ];
  for (const [id, lines] of boxes) byId(id).textContent = lines.join("\n");
}

/**
 * The code box beside section 4: the very lines of src/lesson/funnel.ts the step runs, the
 * running one highlighted (a drop or a keep; a bend or the side that tightened).
 */
function renderCode(result: LessonResult, at: ReturnType<typeof pathStepAt>): void {
  const pre = byId("code-4");
  const p = result.path;
  const lines = at.phase === "funnel" || at.phase === "done" ? CODE.funnel : CODE.drop;
  // Lines are told apart by index: the funnel region has a `push(ax, az);` per side.
  let hot: (line: string, index: number) => boolean = () => false;
  if (at.phase === "drop") {
    const ok = p.drops.dropped[at.index] === 1;
    hot = (l) => l.trim() === (ok ? "alive.splice(k, 1);" : "k++;");
  } else if (at.phase === "funnel") {
    const now = funnelRecord(p, at.index);
    const before = at.index > 0 ? funnelRecord(p, at.index - 1) : null;
    const same = (a: [number, number], b: [number, number]) => a[0] === b[0] && a[1] === b[1];
    const bent = before !== null && now.fixed > before.fixed;
    const right = before !== null && !same(now.right, before.right);
    const left = before !== null && !same(now.left, before.left);
    // The right edge crossing over the left makes the left end the apex (the first push),
    // the left crossing over the right the right end (the second).
    const pushes = lines.flatMap((l, i) => (l.trim() === "push(ax, az);" ? [i] : []));
    const bendLine = before !== null && same(now.apex, before.left) ? pushes[0] : pushes[1];
    hot = (l, i) => {
      if (bent) return i === bendLine;
      const s = l.trim();
      return (right && s === "rx = prx;") || (left && s === "lx = plx;");
    };
  }
  fillCode(pre, at.phase === "funnel" || at.phase === "done" ? "funnel" : "drop", lines, hot);
}

function fillCode(
  pre: HTMLElement,
  region: "funnel" | "drop",
  lines: readonly string[],
  hot: (line: string, index: number) => boolean,
): void {
  pre.dataset.region = region;
  const nodes = lines.map((line, i) => {
    const span = el("span", `${line}\n`, "code-line");
    if (hot(line, i)) span.classList.add("running");
    return span;
  });
  pre.replaceChildren(...nodes);
}

/** What each section's picture depends on (the language on none of them). */
function pictureKey(s: LessonSettings, section: Section): string {
  if (section === 1) return `${s.shape}:${s.shape === "L" ? s.corner.join(",") : ""}`;
  if (section === 3) return `${s.radius}:${s.method}`;
  if (section === 2) return `${s.radius}:${s.method}:${s.start.join(",")}:${s.goal.join(",")}`;
  return `${s.radius}:${s.method}:${s.view}:${s.step}:${s.start.join(",")}:${s.goal.join(",")}`;
}

/** The pre-rendered default pictures, decoded, until the first recompute draws them. */
const prerendered = new Map<Section, { key: string; bitmap: ImageBitmap }>();

/**
 * Decodes the canvases' pre-rendered backgrounds (the default state's pictures). Exact pixels:
 * no premultiplication, no colour conversion; the PNGs carry no colour chunks and are opaque.
 * Any failure leaves the map short and that picture is drawn by the renderer as usual.
 */
async function decodePrerendered(): Promise<void> {
  if (typeof createImageBitmap !== "function") return;
  const defaults = resolveLessonSettings(DEFAULT_LESSON_SETTINGS);
  await Promise.all(
    views.map(async (view) => {
      const m = /url\("?(data:image\/png;base64,[^")]+)"?\)/.exec(
        view.canvas.style.backgroundImage,
      );
      if (!m || !view.context) return;
      try {
        // The bytes straight from the URL (no fetch: a data: fetch goes through the loader).
        const base64 = m[1]!.slice(m[1]!.indexOf(",") + 1);
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const blob = new Blob([bytes], { type: "image/png" });
        const bitmap = await createImageBitmap(blob, {
          premultiplyAlpha: "none",
          colorSpaceConversion: "none",
        });
        prerendered.set(view.section, { key: pictureKey(defaults, view.section), bitmap });
      } catch {
        // Drawn from scratch instead.
      }
    }),
  );
}

function renderPicture(result: LessonResult, view: SectionView): void {
  if (!view.context) return;
  const key = pictureKey(result.settings, view.section);
  if (key === view.drawn) return;
  view.drawn = key;
  const at = view.images.findIndex((i) => i.key === key);
  let entry = at >= 0 ? view.images.splice(at, 1)[0]! : null;
  if (!entry && prerendered.get(view.section)?.key === key) {
    // The default picture is already in the HTML (web/prerender.ts): the browser's PNG decoder
    // gives the renderer's very pixels back, for a fraction of drawing them again.
    drawPrerendered(view);
    return;
  }
  if (!entry) {
    // The rasterizer's pixels, unchanged: straight-alpha RGBA rows, exactly ImageData's layout.
    const image = renderLessonSection(result, view.section);
    const pixels = image.data as Uint8ClampedArray<ArrayBuffer>;
    entry = { key, image: new ImageData(pixels, image.width, image.height) };
  }
  view.images.unshift(entry);
  if (view.images.length > IMAGES_KEPT) view.images.pop();
  const { image } = entry;
  if (view.canvas.width !== image.width) view.canvas.width = image.width;
  if (view.canvas.height !== image.height) view.canvas.height = image.height;
  view.context.putImageData(image, 0, 0);
}

/** The picture's legend: the renderer's own colour for each thing it draws now, named in the page language. */
function renderLegend(result: LessonResult, view: SectionView): void {
  const entries = lessonLegend(result, view.section);
  const sig = `${page.lang}:${entries.map((e) => e.key).join(",")}`;
  if (sig === view.shown.legend) return;
  view.shown.legend = sig;
  const items = entries.map((entry) => {
    const li = el(
      "li",
      undefined,
      `legend-item legend-${entry.kind}${entry.dashed ? " dashed" : ""}`,
    );
    const swatch = el("span", undefined, "swatch");
    const [r, g, b] = entry.colour;
    swatch.style.setProperty("--c", `rgb(${r}, ${g}, ${b})`);
    swatch.setAttribute("aria-hidden", "true");
    li.dataset.legend = entry.key;
    li.append(swatch, el("span", text(entry.key)));
    return li;
  });
  view.legend.replaceChildren(...items);
}

function renderReadouts(items: readonly LessonReadout[], view: SectionView): void {
  const sig = `${page.lang}:${JSON.stringify(items)}`;
  if (sig === view.shown.readouts) return;
  view.shown.readouts = sig;
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
  const sig = `${page.lang}:${JSON.stringify(data ?? null)}`;
  if (sig === view.shown.table) return;
  view.shown.table = sig;
  if (!data) {
    view.tableWrap.replaceChildren();
    return;
  }
  const table = el("table");
  table.dataset.table = data.id;
  // The phone layout's grid: label + value columns on one line (the last column goes under).
  table.style.setProperty("--cols", String(data.columns.length - 1));
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
    tr.append(el("td", text(row.means), "means"));
    tbody.append(tr);
  }
  table.append(el("thead"), tbody);
  table.tHead!.append(head);
  view.tableWrap.replaceChildren(table);
}

function renderChecks(result: LessonResult): void {
  const sig = `${page.lang}:${JSON.stringify([result.checks, result.log, result.logVars])}`;
  if (sig === shown.checks) return;
  shown.checks = sig;
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

// ---- the probe: mouse, touch and keyboard ---------------------------------------------------

/** What lies under the probed point of `view`, and why (the verdict's reason in numbers). */
function probeText(view: SectionView): string {
  const probe = page.probes.get(view.section);
  const result = probe ? currentResult() : null;
  if (!probe || !result) return text("page.probe.idle");
  const world = lessonPixelToWorld(view.section, probe.px, probe.py);
  if (!world) return text("page.probe.outside");
  const method = result.settings.method;
  const hit = hitTestLesson(result, world.x, world.z, method);
  const at = { x: world.x.toFixed(2), z: world.z.toFixed(2) };
  if (view.section === 1) {
    return text("page.probe.shape", {
      ...at,
      where: text(hit.inShape ? "hover.inShape" : "hover.outShape", {
        shape: text(`page.hover.shapeName.${result.settings.shape}`),
      }),
    });
  }
  const cell = hit.cell ? text("hover.cell", { i: hit.cell[0], j: hit.cell[1] }) : "";
  const [ci, cj] = hit.cell ?? [0, 0];
  const size = result.scene.cellSize;
  const d = distanceToObstacles((ci + 0.5) * size, (cj + 0.5) * size);
  const r = result.settings.radius;
  const state = result.surface[method].state[ci + cj * result.scene.cols];
  const reason =
    d === 0
      ? text("page.probe.inObstacle")
      : method === "simple"
        ? text(d < r ? "page.probe.removedSimple" : "page.probe.keptSimple", {
            d: fmt4(d),
            r: fmtRadius(r),
          })
        : text(state === 1 ? "page.probe.keptMeshway" : "page.probe.removedMeshway", {
            d: fmt4(d),
            r: fmtRadius(r),
            voxels: Math.ceil(r / size - 1e-9),
          });
  const polygon =
    view.section === 2
      ? ""
      : ` · ${hit.polygon === null ? text("hover.noPolygon") : text("hover.polygon", { p: hit.polygon })}`;
  return text("page.probe.at", {
    ...at,
    cell,
    walkable: text(hit.walkable ? "hover.walkable" : "hover.blocked"),
    reason,
    polygon,
  });
}

/** Section 4's start or goal under the probe cursor (within a finger's reach), if any. */
function endpointAt(at: { px: number; py: number }): "start" | "goal" | null {
  const S = LESSON_CANVAS.width / LESSON_SCENE.width;
  const near = (p: readonly number[]) => Math.hypot(p[0]! * S - at.px, p[1]! * S - at.py) <= 14;
  return near(page.goal) ? "goal" : near(page.start) ? "start" : null;
}

/** The keyboard's way to move start and goal (dragging's alternative), said on the probe line. */
function carryHint(view: SectionView): string {
  if (view.section !== 4) return "";
  if (page.carrying)
    return text("page.probe.carrying", { what: text(`page.probe.${page.carrying}`) });
  const probe = page.probes.get(4);
  const under = probe && endpointAt(probe);
  return under ? text("page.probe.pickUp", { what: text(`page.probe.${under}`) }) : "";
}

function renderProbe(view: SectionView): void {
  view.probe.textContent = probeText(view) + carryHint(view);
  const probe = page.probes.get(view.section);
  view.cursor.hidden = !probe;
  if (probe) {
    view.cursor.style.left = `${(probe.px / LESSON_CANVAS.width) * 100}%`;
    view.cursor.style.top = `${(probe.py / LESSON_CANVAS.height) * 100}%`;
  }
}

/** Client coordinates → picture pixels through the canvas's content box. */
function toPicture(view: SectionView, clientX: number, clientY: number) {
  const c = view.canvas;
  const box = c.getBoundingClientRect();
  if (c.clientWidth === 0 || c.clientHeight === 0) return null;
  return {
    px: ((clientX - box.left - c.clientLeft) * c.width) / c.clientWidth,
    py: ((clientY - box.top - c.clientTop) * c.height) / c.clientHeight,
  };
}

/**
 * A finger that lands on a draggable handle drags it; anywhere else on the picture it scrolls
 * the page as usual (the canvas keeps touch-action: auto). Cancelling touchstart is what stops
 * the browser's scroll for that one touch; pointer events still follow the finger.
 */
function captureTouchOnHandle(
  view: SectionView,
  onHandle: (at: { px: number; py: number }) => boolean,
): void {
  view.canvas.addEventListener(
    "touchstart",
    (e) => {
      const touch = e.touches[0];
      if (e.touches.length !== 1 || !touch) return;
      const at = toPicture(view, touch.clientX, touch.clientY);
      if (at && onHandle(at)) e.preventDefault();
    },
    { passive: false },
  );
}

/** Section 4: pressing on the start or goal dot picks it up; dragging moves it; releasing drops it. */
function wireDrag(view: SectionView): void {
  // The scene's own constants: asking a result here would run the whole lesson before the first frame.
  const S = LESSON_CANVAS.width / LESSON_SCENE.width;
  const near = (p: readonly number[], at: { px: number; py: number }) =>
    Math.hypot(p[0]! * S - at.px, p[1]! * S - at.py) <= 14;
  captureTouchOnHandle(view, (at) => near(page.goal, at) || near(page.start, at));
  view.canvas.addEventListener("pointerdown", (e) => {
    const at = toPicture(view, e.clientX, e.clientY);
    if (!at) return;
    page.dragging = near(page.goal, at) ? "goal" : near(page.start, at) ? "start" : null;
    if (page.dragging) {
      view.canvas.setPointerCapture(e.pointerId);
      e.preventDefault();
    }
  });
  view.canvas.addEventListener("pointermove", (e) => {
    if (!page.dragging) return;
    const at = toPicture(view, e.clientX, e.clientY);
    if (!at) return;
    const { width, depth } = LESSON_SCENE;
    const x = Math.min(width, Math.max(0, at.px / S));
    const z = Math.min(depth, Math.max(0, at.py / S));
    const p: [number, number] = [Math.round(x * 100) / 100, Math.round(z * 100) / 100];
    if (page.dragging === "start") page.start = p;
    else page.goal = p;
    schedule();
  });
  const drop = () => {
    page.dragging = null;
  };
  view.canvas.addEventListener("pointerup", drop);
  view.canvas.addEventListener("pointercancel", drop);
}

/** Section 1: the L's inner corner follows the pointer, on its sliders' 0.25 grid inside the notch. */
function wireCornerDrag(view: SectionView): void {
  const near = (at: { px: number; py: number }) => {
    if (page.settings.shape !== "L") return false;
    const [cx, cy] = lessonWorldToPixel(1, Number(cornerX.value), Number(cornerZ.value));
    return Math.hypot(cx - at.px, cy - at.py) <= 22;
  };
  let dragging = false;
  captureTouchOnHandle(view, near);
  view.canvas.addEventListener("pointerdown", (e) => {
    const at = toPicture(view, e.clientX, e.clientY);
    if (!at || !near(at)) return;
    dragging = true;
    view.canvas.setPointerCapture(e.pointerId);
    e.preventDefault();
  });
  view.canvas.addEventListener("pointermove", (e) => {
    if (!dragging) return;
    const at = toPicture(view, e.clientX, e.clientY);
    const world = at && lessonPixelToWorld(1, at.px, at.py);
    if (!world) return;
    const snap = (v: number, lo: number, hi: number) =>
      Math.min(hi, Math.max(lo, Math.round(v * 4) / 4));
    cornerX.value = String(snap(world.x, LESSON_CORNER.minX, LESSON_CORNER.maxX));
    cornerZ.value = String(snap(world.z, LESSON_CORNER.minZ, LESSON_CORNER.maxZ));
    schedule();
  });
  const drop = () => {
    dragging = false;
  };
  view.canvas.addEventListener("pointerup", drop);
  view.canvas.addEventListener("pointercancel", drop);
}

function wireProbe(view: SectionView): void {
  const set = (e: PointerEvent) => {
    const at = toPicture(view, e.clientX, e.clientY);
    if (!at) return;
    page.probes.set(view.section, at);
    renderProbe(view);
  };
  view.canvas.addEventListener("pointermove", set);
  view.canvas.addEventListener("pointerdown", set);
  view.canvas.addEventListener("pointerleave", (e) => {
    // A finger lifting off keeps its verdict; the mouse leaving clears it.
    if (e.pointerType !== "mouse") return;
    page.probes.delete(view.section);
    renderProbe(view);
  });
  view.canvas.addEventListener("keydown", (e) => {
    if (view.section === 4 && carryKey(view, e.key)) {
      e.preventDefault();
      return;
    }
    const move: Record<string, [number, number]> = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    };
    const d = move[e.key];
    if (!d) return;
    e.preventDefault();
    // One cell (10 picture pixels) per key press, starting from the picture's centre.
    const cell = LESSON_SCENE.cellSize * 20;
    const now = page.probes.get(view.section) ?? {
      px: LESSON_CANVAS.width / 2 - cell / 2,
      py: LESSON_CANVAS.height / 2 - cell / 2,
    };
    const snap = (v: number) => (Math.floor(v / cell) + 0.5) * cell;
    const px = Math.min(
      LESSON_CANVAS.width - cell / 2,
      Math.max(cell / 2, snap(now.px) + d[0] * cell),
    );
    const py = Math.min(
      LESSON_CANVAS.height - cell / 2,
      Math.max(cell / 2, snap(now.py) + d[1] * cell),
    );
    page.probes.set(view.section, { px, py });
    if (view.section === 4 && page.carrying) {
      const S = LESSON_CANVAS.width / LESSON_SCENE.width;
      const p: [number, number] = [
        Math.round((px / S) * 100) / 100,
        Math.round((py / S) * 100) / 100,
      ];
      if (page.carrying === "start") page.start = p;
      else page.goal = p;
      schedule();
    }
    renderProbe(view);
  });
  view.canvas.addEventListener("blur", () => {
    page.carrying = null;
  });
  view.canvas.addEventListener("focus", () => {
    if (!page.probes.has(view.section)) renderProbe(view);
  });
}

/**
 * Section 4's keys for start and goal: S or G puts the cursor on the start or goal and picks
 * it up, Enter or Space picks up what is under the cursor or drops what it carries, Escape
 * drops. Arrows then move the carried point cell by cell. True when the key was one of these.
 */
function carryKey(view: SectionView, key: string): boolean {
  const S = LESSON_CANVAS.width / LESSON_SCENE.width;
  const lower = key.toLowerCase();
  if (lower === "s" || lower === "g") {
    const which = lower === "s" ? "start" : "goal";
    const p = which === "start" ? page.start : page.goal;
    page.probes.set(4, { px: p[0]! * S, py: p[1]! * S });
    page.carrying = which;
  } else if (key === "Enter" || key === " ") {
    const probe = page.probes.get(4);
    page.carrying = page.carrying ? null : probe ? endpointAt(probe) : null;
  } else if (key === "Escape" && page.carrying) {
    page.carrying = null;
  } else {
    return false;
  }
  renderProbe(view);
  return true;
}

// ---- wiring ---------------------------------------------------------------------------------

function start(): void {
  performance.mark("lesson:start");
  radiusInput.min = String(LESSON_RADIUS.min);
  radiusInput.max = String(LESSON_RADIUS.max);
  radiusInput.step = String(LESSON_RADIUS.step);
  page.lang = initialLang();
  writeControls(page.settings);

  page.canDraw = views.every((v) => v.context !== null);
  if (!page.canDraw) {
    byId("fallback").hidden = false;
    // The picture box (canvas + legend) goes as a whole; its CSS display would beat [hidden] on the canvas.
    for (const v of views) (v.canvas.closest(".canvas-box") as HTMLElement).hidden = true;
    for (const v of views) v.legend.hidden = true;
  }
  body.dataset.canvas = page.canDraw ? "2d" : "none";

  for (const input of document.querySelectorAll<HTMLInputElement>("main input")) {
    input.addEventListener("input", () => schedule());
    input.addEventListener("change", () => schedule());
  }
  const stepBy = (d: number) => {
    const v = Math.min(Number(stepInput.max), Math.max(0, Number(stepInput.value) + d));
    stepInput.value = String(v);
    schedule();
  };
  byId("step-prev").addEventListener("click", () => stepBy(-1));
  byId("step-next").addEventListener("click", () => stepBy(1));
  byId("reset").addEventListener("click", () => {
    writeControls(DEFAULT_LESSON_SETTINGS);
    schedule();
  });
  for (const lang of ["zh", "en"] as const) {
    byId(`lang-${lang}`).addEventListener("click", () => chooseLang(lang));
  }
  for (const view of views) wireProbe(view);
  wireDrag(views[3]!);
  wireCornerDrag(views[0]!);
  renderStaticCode();
  // The default pictures, text and tables are already on screen (web/prerender.ts): the first
  // recompute waits until that first frame is painted (a rAF callback would run before it).
  body.dataset.ready = "false";
  page.scheduled = true;
  const decoded = decodePrerendered();
  if (page.lang === PRERENDERED_LANG || swapInPrerendered(page.lang)) {
    // The HTML already shows the default state in this language, every number and table
    // (web/prerender.ts, checked against `meshway lesson` by the browser test): once its
    // pictures are on the canvases the page is complete; the lesson itself is computed in
    // the background, in slices, before the reader's first move needs it.
    const shownLang = page.lang;
    decoded.then(
      () => showPrerendered(shownLang),
      () => {
        page.scheduled = false;
        schedule();
      },
    );
    return;
  }
  // Another language: the text must be written from a result. The default state's lesson
  // starts now, in slices, while the browser decodes the pictures and paints the
  // pre-rendered page between them; the first recompute then only assembles.
  runSliced(prepareLesson(page.settings), 12, () => decoded.then(recompute, recompute));
}

/** The language web/prerender.ts writes the page in. */
const PRERENDERED_LANG: LessonLang = "zh";

/**
 * The default state's text in `lang` from web/prerender.ts's `<template id="prerender-LANG">`
 * (tables, readouts, legends, summary, step, checks): the page text switched, those parts
 * swapped in. False when the page has no such template (then the lesson writes them).
 */
function swapInPrerendered(lang: LessonLang): boolean {
  const template = document.getElementById(`prerender-${lang}`);
  if (!(template instanceof HTMLTemplateElement)) return false;
  renderStaticText();
  for (const part of template.content.children) {
    const target = document.querySelector((part as HTMLElement).dataset.target ?? "");
    if (target) target.replaceChildren(...part.childNodes);
  }
  return true;
}

/** The result for the settings shown, computed now if the background has not got there yet. */
function currentResult(): LessonResult | null {
  if (!page.result && !page.scheduled) {
    try {
      page.result = runLesson(page.settings);
    } catch {
      return null;
    }
  }
  return page.result;
}

/**
 * The pre-rendered default state made live: its pictures drawn onto the canvases (the
 * renderer's very pixels, decoded), the step box's code, the test hook; then the lesson
 * computed in slices. A picture that did not decode is drawn by the first recompute instead.
 */
function showPrerendered(shownLang: LessonLang): void {
  const t0 = performance.now();
  performance.mark("lesson:recompute");
  page.settings = resolveLessonSettings(readControls());
  // A control moved (or the language changed) while the pictures decoded: a recompute instead.
  const defaults = JSON.stringify(resolveLessonSettings(DEFAULT_LESSON_SETTINGS));
  if (
    page.lang !== shownLang ||
    JSON.stringify(page.settings) !== defaults ||
    (page.canDraw && views.some((v) => !prerendered.has(v.section)))
  ) {
    page.scheduled = false;
    schedule();
    return;
  }
  for (const view of views) drawPrerendered(view);
  // Section 4 at its last step: the funnel's lines, none running (renderCode's "done").
  fillCode(byId("code-4"), "funnel", CODE.funnel, () => false);
  byId<HTMLButtonElement>("step-next").disabled = true;
  shown.lang = page.lang;
  page.scheduled = false;
  body.dataset.settings = JSON.stringify(page.settings);
  const t1 = performance.now();
  body.dataset.renderMs = (t1 - t0).toFixed(1);
  body.dataset.latencyMs = (t1 - t0).toFixed(1);
  body.dataset.firstMs ??= t1.toFixed(1);
  performance.mark("lesson:ready");
  body.dataset.ready = "true";
  const settings = page.settings;
  runSliced(prepareLesson(settings), 12, () => {
    // Unless a control has moved meanwhile (its recompute then holds the result), the
    // default state's result: the probe and the next recompute's unchanged parts need it.
    if (!page.result && !page.scheduled && body.dataset.settings === JSON.stringify(settings)) {
      page.result = runLesson(settings);
    }
    body.dataset.computedMs ??= performance.now().toFixed(1);
    performance.mark("lesson:computed");
    prefetchSoon();
  });
}

/** Draws the decoded pre-rendered picture of `view`, kept like a drawn one (see renderPicture). */
function drawPrerendered(view: SectionView): void {
  const pre = prerendered.get(view.section);
  if (!view.context || !pre) return;
  prerendered.delete(view.section);
  if (view.canvas.width !== pre.bitmap.width) view.canvas.width = pre.bitmap.width;
  if (view.canvas.height !== pre.bitmap.height) view.canvas.height = pre.bitmap.height;
  view.context.clearRect(0, 0, view.canvas.width, view.canvas.height);
  view.context.drawImage(pre.bitmap, 0, 0);
  pre.bitmap.close();
  const image = view.context.getImageData(0, 0, view.canvas.width, view.canvas.height);
  view.images.unshift({ key: pre.key, image });
  if (view.images.length > IMAGES_KEPT) view.images.pop();
  view.drawn = pre.key;
}

start();
