import type { PartitionConvexity, ShapeConvexity } from "./convex.js";
import type { LessonPartition } from "./partition.js";
import type { LessonPath } from "./path.js";
import type { LESSON_SCENE } from "./scene.js";
import type { LessonSettings } from "./settings.js";
import type { LessonSurface } from "./surface.js";

/** A key of MESSAGES (src/lesson/i18n.ts). */
export type MessageKey = string;

/** A table cell: numbers already formatted (src/lesson/format.ts); never language-dependent. */
export type LessonCell = string;

export interface LessonTableRow {
  label: MessageKey;
  cells: LessonCell[];
  /** The row's "what it means" sentence (the last column). */
  means: MessageKey;
}

/**
 * One of the four tables. `columns` includes the label column's heading first and the
 * "what it means" column ("col.means") last.
 */
export interface LessonTable {
  id: "convex" | "surface" | "partition" | "path";
  title: MessageKey;
  /** Values for the title's {placeholders} (language-neutral). */
  titleVars: Record<string, string>;
  columns: MessageKey[];
  rows: LessonTableRow[];
}

/** One self-check criterion, measured on the current settings. */
export interface LessonCheck {
  id: string;
  label: MessageKey;
  pass: boolean;
  measured: string;
  expected: string;
}

/** Section 1: both criteria on both shapes, and over both partitions' polygons. */
export interface LessonConvexSection {
  square: ShapeConvexity;
  /** The L with the settings' inner corner. */
  L: ShapeConvexity;
  /** The L's inner corner (settings.corner); at LESSON_DEFAULT_CORNER the L of the lesson. */
  corner: readonly [number, number];
  /** The shape the settings choose (the one section 1 draws). */
  shown: ShapeConvexity;
  partitions: { simple: PartitionConvexity; meshway: PartitionConvexity };
}

/** Section 3: both partitions; `current` is the one the settings' method chooses. */
export interface LessonPartitionSection {
  simple: LessonPartition;
  meshway: LessonPartition;
  current: LessonPartition;
}

/** One readout beside a section's picture: t(label) and a formatted, language-neutral value. */
export interface LessonReadout {
  id: string;
  label: MessageKey;
  value: string;
}

/** The readouts of one section. */
export interface LessonSectionReadouts {
  section: 1 | 2 | 3 | 4;
  items: LessonReadout[];
}

/** Everything the lesson computes for one setting of the controls. */
export interface LessonResult {
  settings: LessonSettings;
  scene: typeof LESSON_SCENE;
  convex: LessonConvexSection;
  surface: LessonSurface;
  partition: LessonPartitionSection;
  /** Section 4 for the settings' method. */
  path: LessonPath;
  /** Exactly four, in section order. */
  tables: LessonTable[];
  /** Exactly four, in section order: the numbers beside each picture. */
  readouts: LessonSectionReadouts[];
  checks: LessonCheck[];
  /** Execution log: message keys; logVars[i] holds line i's values (t(lang, log[i], logVars[i])). */
  log: MessageKey[];
  logVars: Record<string, string>[];
}
