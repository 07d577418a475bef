import { readFileSync } from "node:fs";
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { BuildConfig, Partition } from "../config.js";
import { MeshwayError } from "../errors.js";
import type { UpAxis } from "../input.js";
import { describeFsError } from "../node/errno.js";
import { closest } from "./suggest.js";

/** A mistake in how the command was called: exit code 2, one line and a pointer to --help. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  /** A string option's value, undefined when absent. */
  str(name: string): string | undefined;
  /** Whether a boolean flag was given. */
  flag(name: string): boolean;
}

/**
 * Rewrites every option to its `--long=value` form before node:util parseArgs sees it, so a
 * value that starts with "-" after an option that takes one (`--from -24.4,-2.1,-12`) is that
 * option's value, as GNU getopt does for required arguments; parseArgs alone calls it
 * ambiguous. Unknown options are refused here in our own words, with the closest known name.
 */
export function normalizeArgs(args: readonly string[], options: Options): string[] {
  const byShort = new Map<string, string>();
  for (const [name, o] of Object.entries(options)) if (o.short) byShort.set(o.short, name);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      out.push(...args.slice(i));
      break;
    }
    if (a.length < 2 || a[0] !== "-") {
      out.push(a);
      continue;
    }
    let name: string;
    let inline: string | undefined;
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      inline = eq < 0 ? undefined : a.slice(eq + 1);
      if (!Object.hasOwn(options, name)) throw unknownOption(`--${name}`, name, options);
    } else {
      const long = byShort.get(a[1]!);
      if (long === undefined) throw unknownOption(a, a.slice(1), options);
      name = long;
      inline = a.length > 2 ? a.slice(2).replace(/^=/, "") : undefined;
    }
    if (options[name]!.type === "string") {
      if (inline === undefined) {
        if (i + 1 >= args.length) throw new UsageError(`--${name} needs a value`);
        inline = args[++i]!;
      }
      out.push(`--${name}=${inline}`);
    } else {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value, got "${inline}"`);
      out.push(`--${name}`);
    }
  }
  return out;
}

function unknownOption(shown: string, name: string, options: Options): UsageError {
  const guess = closest(name, Object.keys(options));
  return new UsageError(
    `unknown option ${shown}${guess === undefined ? "" : `; did you mean --${guess}?`}`,
  );
}

/** parseArgs in strict mode over normalizeArgs; unknown flags and bad shapes become UsageErrors. */
export function parseCommandArgs<O extends Options>(args: string[], options: O): ParsedArgs {
  const all: Options = { ...options, help: { type: "boolean", short: "h" } };
  const normalized = normalizeArgs(args, all);
  try {
    const { values, positionals } = parseArgs({
      args: normalized,
      options: all,
      allowPositionals: true,
      strict: true,
    });
    const raw = values as Record<string, string | boolean | undefined>;
    return {
      values: raw,
      positionals,
      str: (name) => (typeof raw[name] === "string" ? (raw[name] as string) : undefined),
      flag: (name) => raw[name] === true,
    };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** "x,y,z" → [x, y, z]; malformed → UsageError naming the flag. */
export function parseVec3(flag: string, text: string | undefined): [number, number, number] {
  if (text === undefined) throw new UsageError(`--${flag} is required (x,y,z)`);
  const parts = text.split(",");
  const v = parts.map((p) => (p.trim() === "" ? Number.NaN : Number(p)));
  if (v.length !== 3 || v.some((n) => !Number.isFinite(n))) {
    throw new UsageError(`--${flag} expects three numbers x,y,z, got "${text}"`);
  }
  return v as [number, number, number];
}

export function parseNumber(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n)) {
    throw new UsageError(`--${flag} expects a number, got "${text}"`);
  }
  return n;
}

/** Build-config flags shared by commands that build. */
export const BUILD_FLAGS = {
  config: { type: "string" },
  "cell-size": { type: "string" },
  "cell-height": { type: "string" },
  "agent-height": { type: "string" },
  "agent-radius": { type: "string" },
  "agent-climb": { type: "string" },
  "max-slope": { type: "string" },
  partition: { type: "string" },
} as const;

/** How to read the input geometry's axes and winding (applied before the build). */
export const GEOMETRY_FLAGS = {
  up: { type: "string" },
  "flip-winding": { type: "boolean" },
} as const;

/** --up and --flip-winding as TriangleMeshInput fields. */
export function orientationFrom(
  str: ParsedArgs["str"],
  flag: ParsedArgs["flag"],
): { up: UpAxis; flipWinding: boolean } {
  const up = str("up") ?? "y";
  if (up !== "y" && up !== "z") throw new UsageError(`--up must be y or z, got "${up}"`);
  return { up, flipWinding: flag("flip-winding") };
}

const FLAG_TO_OPTION: Record<string, keyof BuildConfig> = {
  "cell-size": "cellSize",
  "cell-height": "cellHeight",
  "agent-height": "agentHeight",
  "agent-radius": "agentRadius",
  "agent-climb": "agentMaxClimb",
  "max-slope": "agentMaxSlope",
};

/** The config file (if any) with flags on top; values are checked later by resolveConfig. */
export function buildConfigFrom(values: Record<string, unknown>): Partial<BuildConfig> {
  let config: Partial<BuildConfig> = {};
  const file = values.config as string | undefined;
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new MeshwayError("INVALID_INPUT", `${file}: ${describeFsError(e)}`);
    }
    try {
      config = JSON.parse(text);
    } catch (e) {
      throw new MeshwayError("INVALID_CONFIG", `${file}: not valid JSON (${(e as Error).message})`);
    }
    if (config === null || typeof config !== "object" || Array.isArray(config)) {
      throw new MeshwayError("INVALID_CONFIG", `${file}: expected a JSON object of build options`);
    }
  }
  for (const [flag, option] of Object.entries(FLAG_TO_OPTION)) {
    const n = parseNumber(flag, values[flag] as string | undefined);
    if (n !== undefined) (config as Record<string, unknown>)[option] = n;
  }
  if (values.partition !== undefined) config.partition = values.partition as Partition;
  return config;
}
