import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { serializeNavMesh } from "../../src/format/index.js";
import { buildNavMesh, buildNavMeshCore } from "../../src/generate/build-nav-mesh.js";
import { partitionLayers, partitionMonotone } from "../../src/generate/partition.js";
import { SceneBuilder } from "../helpers/scenes.js";

const CONFIG = { cellSize: 0.25, cellHeight: 0.125, agentRadius: 0.5 };
const mesh = new SceneBuilder().floor(0, 0, 10, 10).box(5, 0, 5, 2, 2, 2).build();
const bytes = (r: ReturnType<typeof buildNavMesh>) => serializeNavMesh(r.navMesh, null);

describe("buildNavMeshCore (only the partitions it is given are bundled)", () => {
  it("builds what buildNavMesh builds with the default watershed", () => {
    expect(bytes(buildNavMeshCore(mesh, CONFIG))).toEqual(bytes(buildNavMesh(mesh, CONFIG)));
  });

  it("builds with monotone or layers when given them, as buildNavMesh does", () => {
    const partitions = { monotone: partitionMonotone, layers: partitionLayers };
    for (const partition of ["monotone", "layers"] as const) {
      const cfg = { ...CONFIG, partition };
      expect(bytes(buildNavMeshCore(mesh, cfg, { partitions }))).toEqual(
        bytes(buildNavMesh(mesh, cfg)),
      );
    }
  });

  it("refuses a partition it was not given, naming it and what to pass", () => {
    const run = () => buildNavMeshCore(mesh, { ...CONFIG, partition: "monotone" });
    expect(run).toThrow(MeshwayError);
    expect(run).toThrow(
      /"partition" = "monotone" is not among the partitions given to buildNavMeshCore \(watershed\); pass it in options.partitions/,
    );
  });
});
