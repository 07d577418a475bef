import { describe, expect, it } from "vitest";
import { Crowd } from "../../src/crowd/crowd.js";
import { updateFlags } from "../../src/crowd/index.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { createTileCache } from "../../src/tiles/tile-cache.js";
import { islands, wallScene } from "../helpers/query-scenes.js";
import { SceneBuilder } from "../helpers/scenes.js";

const DT = 1 / 30;

function run(crowd: Crowd, steps: number, each?: (step: number) => void): void {
  for (let s = 0; s < steps; s++) {
    crowd.update(DT);
    each?.(s);
  }
}

function noNaN(crowd: Crowd): void {
  for (const v of crowd.positions) expect(Number.isNaN(v)).toBe(false);
  for (const v of crowd.velocities) expect(Number.isNaN(v)).toBe(false);
}

function xz(crowd: Crowd, id: number): [number, number] {
  const p = crowd.position(id);
  return [p[0], p[2]];
}

function islandsWithLink(bidirectional = false): NavMesh {
  const nm = islands();
  nm.addOffMeshConnection({
    start: [5, 0.25, 3],
    end: [9, 0.25, 3],
    radius: 0.5,
    bidirectional,
    area: 0,
    flags: 1,
    userId: 77,
  });
  return nm;
}

describe("Crowd: adding, requests and states", () => {
  it("walks an agent to its target around the wall", () => {
    const nm = wallScene();
    const crowd = new Crowd(nm, { maxAgents: 4, maxAgentRadius: 0.5 });
    const id = crowd.addAgent([2, 0.25, 2], { radius: 0.4 });
    expect(id).toBe(0);
    expect(crowd.agentState(id)).toBe("walking");
    expect(crowd.targetState(id)).toBe("none");
    expect(crowd.requestMoveTarget(id, [2, 0.25, 10])).toBe(true);
    expect(crowd.targetState(id)).toBe("requesting");
    crowd.update(DT);
    expect(["valid", "waitingForPath", "waitingForQueue"]).toContain(crowd.targetState(id));
    expect(crowd.corners(id).length).toBeGreaterThan(0);
    run(crowd, 300);
    const [x, z] = xz(crowd, id);
    expect(Math.hypot(x - 2, z - 10)).toBeLessThan(0.1);
    expect(crowd.targetState(id)).toBe("valid");
    noNaN(crowd);
    // positions / velocities are the float32 views of position() / velocity().
    expect(crowd.positions[0]).toBe(Math.fround(crowd.position(id)[0]));
  });

  it("returns -1 when full or off the navmesh; false for a target with nothing near", () => {
    const nm = wallScene();
    const crowd = new Crowd(nm, { maxAgents: 2, maxAgentRadius: 0.5 });
    expect(crowd.addAgent([50, 0, 50])).toBe(-1);
    const a = crowd.addAgent([2, 0.25, 2]);
    const b = crowd.addAgent([3, 0.25, 2]);
    expect([a, b]).toEqual([0, 1]);
    expect(crowd.addAgent([4, 0.25, 2])).toBe(-1);
    expect(crowd.activeAgentCount).toBe(2);
    expect(crowd.agentCount).toBe(2);
    expect(crowd.requestMoveTarget(a, [50, 0, 50])).toBe(false);
    expect(crowd.targetState(a)).toBe("none");
  });

  it("remove and re-add reuses the slot with fresh state", () => {
    const nm = wallScene();
    const crowd = new Crowd(nm, { maxAgents: 2, maxAgentRadius: 0.5 });
    const a = crowd.addAgent([2, 0.25, 2]);
    crowd.requestMoveTarget(a, [10, 0.25, 2]);
    run(crowd, 10);
    crowd.removeAgent(a);
    expect(crowd.isActive(a)).toBe(false);
    expect([...crowd.active]).toEqual([0, 0]);
    expect(crowd.agentState(a)).toBe("invalid");
    expect(crowd.requestMoveTarget(a, [10, 0.25, 2])).toBe(false);
    run(crowd, 2);
    const again = crowd.addAgent([3, 0.25, 3]);
    expect(again).toBe(a);
    expect(crowd.targetState(again)).toBe("none");
    expect(crowd.velocity(again)).toEqual([0, 0, 0]);
    expect(xz(crowd, again)).toEqual([3, 3]);
  });

  it("requestMoveVelocity moves the agent that way, resetMoveTarget stops it", () => {
    const nm = wallScene();
    const crowd = new Crowd(nm, { maxAgents: 1, maxAgentRadius: 0.5 });
    const id = crowd.addAgent([2, 0.25, 2], { maxAcceleration: 100 });
    expect(crowd.requestMoveVelocity(id, [1, 0, 0])).toBe(true);
    expect(crowd.targetState(id)).toBe("velocity");
    run(crowd, 30);
    const [x, z] = xz(crowd, id);
    expect(x).toBeCloseTo(3, 1);
    expect(z).toBeCloseTo(2, 6);
    crowd.resetMoveTarget(id);
    run(crowd, 30);
    expect(crowd.velocity(id)).toEqual([0, 0, 0]);
    expect(crowd.targetState(id)).toBe("none");
  });

  it("teleport moves the agent and keeps its target", () => {
    const nm = wallScene();
    const crowd = new Crowd(nm, { maxAgents: 1, maxAgentRadius: 0.5 });
    const id = crowd.addAgent([2, 0.25, 2]);
    crowd.requestMoveTarget(id, [2, 0.25, 10]);
    run(crowd, 5);
    expect(crowd.teleport(id, [10, 0.25, 10])).toBe(true);
    expect(xz(crowd, id)).toEqual([10, 10]);
    expect(crowd.velocity(id)).toEqual([0, 0, 0]);
    expect(crowd.teleport(id, [90, 0, 90])).toBe(false);
    run(crowd, 200);
    const [x, z] = xz(crowd, id);
    expect(Math.hypot(x - 2, z - 10)).toBeLessThan(0.1);
  });

  it("rejects bad parameters with the field named", () => {
    const nm = wallScene();
    const crowd = new Crowd(nm, { maxAgents: 1, maxAgentRadius: 0.5 });
    expect(() => crowd.addAgent([2, 0.25, 2], { radius: 0.9 })).toThrow(/maxAgentRadius/);
    expect(() => crowd.addAgent([2, 0.25, 2], { maxSpeed: Number.NaN })).toThrow(/maxSpeed/);
    expect(() => crowd.addAgent([Number.NaN, 0, 0])).toThrow(/addAgent position/);
    expect(() => crowd.update(-1)).toThrow(/dt/);
    expect(() => crowd.position(5)).toThrow(/agent id 5/);
    expect(() => new Crowd(nm, { maxAgents: 0, maxAgentRadius: 1 })).toThrow(/maxAgents/);
  });
});

describe("Crowd: off-mesh links", () => {
  it("are traversed automatically: the agent goes offMesh, then lands and walks on", () => {
    const nm = islandsWithLink();
    const crowd = new Crowd(nm, { maxAgents: 1, maxAgentRadius: 0.5 });
    const id = crowd.addAgent([2, 0.25, 3], { maxSpeed: 2 });
    crowd.requestMoveTarget(id, [12, 0.25, 3]);
    let offMeshSteps = 0;
    run(crowd, 400, () => {
      if (crowd.agentState(id) === "offMesh") offMeshSteps++;
    });
    expect(offMeshSteps).toBeGreaterThan(0);
    const [x, z] = xz(crowd, id);
    expect(Math.hypot(x - 12, z - 3)).toBeLessThan(0.1);
    noNaN(crowd);
  });

  it("with autoTraverseOffMeshConnections false wait for completeOffMeshConnection", () => {
    const nm = islandsWithLink();
    const crowd = new Crowd(nm, {
      maxAgents: 1,
      maxAgentRadius: 0.5,
      autoTraverseOffMeshConnections: false,
    });
    const id = crowd.addAgent([2, 0.25, 3]);
    crowd.requestMoveTarget(id, [12, 0.25, 3]);
    let steps = 0;
    while (crowd.agentState(id) !== "offMesh" && steps < 300) {
      crowd.update(DT);
      steps++;
    }
    expect(crowd.agentState(id)).toBe("offMesh");
    const info = crowd.offMeshConnection(id)!;
    expect(info.userId).toBe(77);
    expect(info.start[0]).toBeCloseTo(5, 5);
    expect(info.end[0]).toBeCloseTo(9, 5);
    const held = crowd.position(id);
    run(crowd, 60);
    expect(crowd.agentState(id)).toBe("offMesh");
    expect(crowd.position(id)).toEqual(held);
    expect(crowd.completeOffMeshConnection(id)).toBe(true);
    expect(crowd.agentState(id)).toBe("walking");
    expect(crowd.position(id)[0]).toBeCloseTo(9, 5);
    expect(crowd.offMeshConnection(id)).toBeNull();
    run(crowd, 200);
    const [x, z] = xz(crowd, id);
    expect(Math.hypot(x - 12, z - 3)).toBeLessThan(0.1);
  });
});

describe("Crowd: a changing navmesh", () => {
  it("a removed tile under an agent makes it invalid (never NaN); restored, it walks again", () => {
    const nm = wallScene();
    const crowd = new Crowd(nm, { maxAgents: 1, maxAgentRadius: 0.5 });
    const id = crowd.addAgent([2, 0.25, 2]);
    crowd.requestMoveTarget(id, [10, 0.25, 10]);
    run(crowd, 20);
    const tileRef = nm.tileRefAt(0, 0);
    const tile = nm.removeTile(tileRef);
    run(crowd, 5);
    expect(crowd.agentState(id)).toBe("invalid");
    noNaN(crowd);
    nm.addTile(tile);
    run(crowd, 300);
    expect(crowd.agentState(id)).toBe("walking");
    const [x, z] = xz(crowd, id);
    expect(Math.hypot(x - 10, z - 10)).toBeLessThan(0.1);
  });

  it("agents route around a tile-cache obstacle dropped on their corridors within a few updates", () => {
    // Two rooms joined by an 8 m wide corridor (z 8..16); the obstacle closes its south half.
    const mesh = new SceneBuilder()
      .floor(0, 0, 12, 24)
      .floor(12, 8, 36, 16)
      .floor(36, 0, 48, 24)
      .build();
    const { navMesh, cache } = createTileCache(mesh, {
      cellSize: 0.5,
      cellHeight: 0.2,
      agentRadius: 0.5,
      tileSize: 16,
    });
    cache.flush();
    const crowd = new Crowd(navMesh, { maxAgents: 6, maxAgentRadius: 0.5 });
    const ids: number[] = [];
    for (let k = 0; k < 6; k++) {
      const id = crowd.addAgent([2 + k, 0, 9 + (k % 2)], {
        radius: 0.4,
        updateFlags: updateFlags.anticipateTurns | updateFlags.separation,
      });
      expect(id).toBeGreaterThanOrEqual(0);
      crowd.requestMoveTarget(id, [44, 0, 10]);
      ids.push(id);
    }
    run(crowd, 30);
    cache.addObstacle({ kind: "box", min: [22, -1, 7], max: [26, 3, 12.5] });
    cache.flush();
    // Within a few updates every agent has a corridor on live polygons again.
    run(crowd, 3);
    for (const id of ids) {
      expect(crowd.agentState(id)).toBe("walking");
      const c = crowd.corridor(id);
      for (let i = 0; i < c.count; i++) expect(navMesh.isValidPolyRef(c.path[i]!)).toBe(true);
    }
    let inside = 0;
    run(crowd, 900, () => {
      for (const id of ids) {
        const [x, z] = xz(crowd, id);
        if (x > 22 && x < 26 && z < 12.5) inside++;
      }
    });
    expect(inside).toBe(0);
    for (const id of ids) {
      const [x, z] = xz(crowd, id);
      expect(Math.hypot(x - 44, z - 10)).toBeLessThan(2);
    }
    noNaN(crowd);
  });
});

describe("Crowd: package exports", () => {
  it("the crowd and its parts are exported from the package index", async () => {
    const index = await import("../../src/index.js");
    expect(index.Crowd).toBe(Crowd);
    expect(index.updateFlags).toEqual({
      anticipateTurns: 1,
      obstacleAvoidance: 2,
      separation: 4,
      optimizeVisibility: 8,
      optimizeTopology: 16,
    });
    for (const name of ["PathCorridor", "LocalBoundary", "PathQueue", "WallSegmentsResult"]) {
      expect(typeof (index as Record<string, unknown>)[name]).toBe("function");
    }
  });
});
