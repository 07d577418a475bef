import { type BuildConfig, type BuildConfigInput, DEFAULT_CONFIG, type Partition } from "meshway";

/** One build option as a slider: BuildConfig key, label with its unit, range. */
interface Slider {
  key: keyof BuildConfig;
  label: string;
  min: number;
  max: number;
  step: number;
}

const SLIDERS: Slider[] = [
  { key: "cellSize", label: "Cell size [wu]", min: 0.05, max: 1, step: 0.05 },
  { key: "cellHeight", label: "Cell height [wu]", min: 0.05, max: 1, step: 0.05 },
  { key: "agentHeight", label: "Agent height [wu]", min: 0.1, max: 5, step: 0.1 },
  { key: "agentRadius", label: "Agent radius [wu]", min: 0, max: 3, step: 0.05 },
  { key: "agentMaxClimb", label: "Agent max climb [wu]", min: 0, max: 5, step: 0.1 },
  { key: "agentMaxSlope", label: "Agent max slope [°]", min: 0, max: 90, step: 1 },
  { key: "regionMinSize", label: "Region min size [cells]", min: 0, max: 150, step: 1 },
  { key: "regionMergeSize", label: "Region merge size [cells]", min: 0, max: 150, step: 1 },
  { key: "edgeMaxLen", label: "Edge max length [wu]", min: 0, max: 50, step: 1 },
  { key: "edgeMaxError", label: "Edge max error [cells]", min: 0.1, max: 3, step: 0.1 },
  { key: "vertsPerPoly", label: "Verts per polygon", min: 3, max: 12, step: 1 },
  { key: "detailSampleDist", label: "Detail sample distance [cells]", min: 0, max: 16, step: 1 },
  { key: "detailSampleMaxError", label: "Detail max error [cells]", min: 0, max: 16, step: 1 },
  { key: "tileSize", label: "Tile size [cells] (0 = one tile)", min: 0, max: 256, step: 8 },
];

/** The playground's starting settings: Recast's defaults, tiled so obstacles work at once. */
export const START_CONFIG: BuildConfigInput = { tileSize: 48 };

/**
 * Builds the option controls into `parent` and calls `onChange` with the whole config on every
 * input (the caller debounces). Control ids are `opt-<key>`.
 */
export function createOptions(
  parent: HTMLElement,
  onChange: (config: BuildConfigInput) => void,
): { config: () => BuildConfigInput } {
  const values: BuildConfigInput = { ...START_CONFIG };
  const current = (): BuildConfigInput => ({ ...values });
  for (const s of SLIDERS) {
    const start = values[s.key] ?? DEFAULT_CONFIG[s.key];
    const row = document.createElement("label");
    row.className = "option";
    const name = document.createElement("span");
    name.textContent = s.label;
    const out = document.createElement("output");
    const input = document.createElement("input");
    input.type = "range";
    input.id = `opt-${s.key}`;
    input.min = String(s.min);
    input.max = String(s.max);
    input.step = String(s.step);
    input.value = String(start);
    out.value = String(start);
    input.addEventListener("input", () => {
      const v = Number(input.value);
      out.value = String(v);
      (values as Record<string, number>)[s.key] = v;
      onChange(current());
    });
    row.append(name, out, input);
    parent.append(row);
  }
  const row = document.createElement("label");
  row.className = "option choice";
  const name = document.createElement("span");
  name.textContent = "Partition";
  const select = document.createElement("select");
  select.id = "opt-partition";
  for (const p of ["watershed", "monotone", "layers"] satisfies Partition[]) {
    select.add(new Option(p, p, p === DEFAULT_CONFIG.partition, p === DEFAULT_CONFIG.partition));
  }
  select.addEventListener("change", () => {
    values.partition = select.value as Partition;
    onChange(current());
  });
  row.append(name, select);
  parent.append(row);
  return { config: current };
}
