import { readFileSync } from "node:fs";
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { BuildConfig, Partition } from "../config.js";
import { MeshwayError } from "../errors.js";
import { describeFsError } from "../node/errno.js";

/** A mistake in how the command was called: exit code 2, usage shown. */
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

/** parseArgs in strict mode; unknown flags and bad shapes become UsageErrors. */
export function parseCommandArgs<O extends Options>(args: string[], options: O): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...options, help: { type: "boolean", short: "h" } },
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
