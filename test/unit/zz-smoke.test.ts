import { it, expect } from "vitest";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { Crowd } from "../../src/crowd/index.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { mulberry32 } from "../../src/query/random-point.js";
import { loadSharedMesh } from "../../test/helpers/meshes.js";
it("smoke", () => {
  const nm = buildNavMesh(loadSharedMesh("dungeon"), {}).navMesh;
  const q = new NavMeshQuery(nm);
  const rng = mulberry32(1);
  const crowd = new Crowd(nm, { maxAgents: 100, maxAgentRadius: 0.6 });
  const ids: number[] = [];
  for (let i = 0; i < 100; i++) {
    const p = q.findRandomPoint(q.defaultFilter, rng);
    const t = q.findRandomPoint(q.defaultFilter, rng);
    const id = crowd.addAgent(p.point, { radius: 0.4 });
    expect(id).toBeGreaterThanOrEqual(0);
    expect(crowd.requestMoveTarget(id, t.point)).toBe(true);
    ids.push(id);
  }
  const t0 = performance.now();
  for (let s = 0; s < 1200; s++) crowd.update(1 / 60);
  const ms = (performance.now() - t0) / 1200;
  let nan = 0;
  for (const v of crowd.positions) if (Number.isNaN(v)) nan++;
  const states: Record<string, number> = {};
  for (const id of ids) { const s = crowd.targetState(id) + "/" + crowd.agentState(id); states[s] = (states[s] ?? 0) + 1; }
  console.log(ms.toFixed(3), "ms/update", nan, states, crowd.corners(0), crowd.position(0));
  expect(nan).toBe(0);
});
