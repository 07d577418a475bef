import {
  formatLessonTables,
  LESSON_CORNER,
  LESSON_LANGS,
  LESSON_METHODS,
  LESSON_RADIUS,
  LESSON_SHAPES,
  LESSON_VIEWS,
  type LessonLang,
  type LessonSettings,
  lessonToJson,
  resolveLessonSettings,
  runLesson,
} from "../../lesson/index.js";
import { type LessonSection, renderLessonSection } from "../../lesson/pictures.js";
import { encodePng } from "../../node/png.js";
import { parseCommandArgs, parseNumber, UsageError } from "../options.js";
import { writeOutput } from "../output.js";
import type { Io } from "../terminal.js";

export const LESSON_HELP = `usage: meshway lesson [options]

Runs the explainer lesson "from cells to faces" on its built-in scene and prints its four
tables (convexity, walkable surface, polygons, path) and the self-check — the same numbers the
explainer page shows. Default language: Chinese (the lesson's own).

options:
  --radius R           agent radius, 0.25..1.5, snapped to steps of 0.05 (default 0.75)
  --shape S            square | L: the shape section 1 tests (default square)
  --method M           simple | meshway: whose partition and path (default simple)
  --view V             midpoint | straight: the path section 4 draws (default straight;
                       midpoint is step 0)
  --step N|last        section 4's step: 0 the midpoints, then point-dropping test by test,
                       the funnel portal by portal, the final path last (default last)
  --from X,Z --to X,Z  start and goal of section 4's path, inside the 24 × 16 scene
                       (default 2.25,2.75 and 21.25,13.25); rounded to 0.01
  --corner X,Z         the L's inner corner (section 1), inside its notch: x in 12..17,
                       z in 3..8 (default 12,8; past the diagonal the L turns convex)
  --lang L             zh | en (default zh)
  --json               one JSON object on stdout (keys + English labels, cells as printed)
  --markdown           the tables as Markdown
  --png FILE --section N   also write section N's picture (1..4) as PNG (atomically)

examples:
  meshway lesson
  meshway lesson --radius 1.5 --method simple --lang en
  meshway lesson --radius 0.5 --json
  meshway lesson --png section4.png --section 4 --view midpoint`;

function choice<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${flag} must be one of ${allowed.join(", ")}, got "${value}"`);
}

export function lessonCommand(args: string[], io: Io): number {
  const { positionals, str, flag } = parseCommandArgs(args, {
    radius: { type: "string" },
    shape: { type: "string" },
    method: { type: "string" },
    view: { type: "string" },
    step: { type: "string" },
    from: { type: "string" },
    to: { type: "string" },
    corner: { type: "string" },
    lang: { type: "string" },
    json: { type: "boolean" },
    markdown: { type: "boolean" },
    png: { type: "string" },
    section: { type: "string" },
  });
  if (flag("help")) {
    io.out(`${LESSON_HELP}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`lesson takes no file, got "${positionals[0]}"`);
  if (flag("json") && flag("markdown"))
    throw new UsageError("--json and --markdown exclude each other");
  const radius = parseNumber("radius", str("radius"));
  if (
    radius !== undefined &&
    !(radius >= LESSON_RADIUS.min - 1e-9 && radius <= LESSON_RADIUS.max + 1e-9)
  ) {
    throw new UsageError(
      `--radius must be in ${LESSON_RADIUS.min}..${LESSON_RADIUS.max}, got ${radius}`,
    );
  }
  const partial: Partial<LessonSettings> = {};
  if (radius !== undefined) partial.radius = radius;
  const shape = choice("shape", str("shape"), LESSON_SHAPES);
  if (shape) partial.shape = shape;
  const method = choice("method", str("method"), LESSON_METHODS);
  if (method) partial.method = method;
  const view = choice("view", str("view"), LESSON_VIEWS);
  if (view) partial.view = view;
  const stepText = str("step");
  if (stepText !== undefined) {
    if (!/^(last|0|[1-9]\d{0,2})$/.test(stepText))
      throw new UsageError(`--step must be "last" or an integer in 0..999, got "${stepText}"`);
    partial.step = stepText === "last" ? -1 : Number(stepText);
  }
  for (const [flag, key] of [
    ["from", "start"],
    ["to", "goal"],
    ["corner", "corner"],
  ] as const) {
    const v = str(flag);
    if (v === undefined) continue;
    const m = /^\s*(-?[\d.]+(?:e-?\d+)?)\s*,\s*(-?[\d.]+(?:e-?\d+)?)\s*$/i.exec(v);
    const x = m ? Number(m[1]) : Number.NaN;
    const z = m ? Number(m[2]) : Number.NaN;
    if (!Number.isFinite(x) || !Number.isFinite(z))
      throw new UsageError(`--${flag} must be x,z (two numbers), got "${v}"`);
    if (flag === "corner") {
      const C = LESSON_CORNER;
      if (!(x >= C.minX && x <= C.maxX && z >= C.minZ && z <= C.maxZ))
        throw new UsageError(
          `--corner ${v} is outside the L's notch: x in ${C.minX}..${C.maxX}, z in ${C.minZ}..${C.maxZ}`,
        );
    } else if (!(x >= 0 && x <= 24 && z >= 0 && z <= 16))
      throw new UsageError(`--${flag} ${v} is outside the lesson's scene: x in 0..24, z in 0..16`);
    partial[key] = [x, z];
  }
  const lang: LessonLang = choice("lang", str("lang"), LESSON_LANGS) ?? "zh";
  const png = str("png");
  const sectionText = str("section");
  if ((png === undefined) !== (sectionText === undefined)) {
    throw new UsageError("--png and --section go together");
  }
  let section: LessonSection | null = null;
  if (sectionText !== undefined) {
    if (!/^[1-4]$/.test(sectionText))
      throw new UsageError(`--section must be 1, 2, 3 or 4, got "${sectionText}"`);
    section = Number(sectionText) as LessonSection;
  }
  if (png !== undefined && !/\.png$/i.test(png))
    throw new UsageError(`--png needs a .png file name, got "${png}"`);

  const result = runLesson(resolveLessonSettings(partial));
  if (png !== undefined && section !== null)
    writeOutput(png, encodePng(renderLessonSection(result, section)));
  if (flag("json")) io.out(`${JSON.stringify(lessonToJson(result, lang))}\n`);
  else io.out(formatLessonTables(result, lang, flag("markdown") ? "markdown" : "text"));
  return 0;
}
