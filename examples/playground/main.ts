// The meshway playground: a level in 3D, its navmesh rebuilt on a Web Worker as options change,
// any build stage drawn, paths (funnel and exact), a crowd and obstacles on a tile cache.
import {
  type BuildConfig,
  type BuildConfigInput,
  type ComputePathResult,
  Crowd,
  deserializeNavMesh,
  findShortestPath,
  mulberry32,
  type NavMesh,
  NavMeshQuery,
  type ObstacleShape,
  QueryFilter,
  serializeNavMesh,
  TileCache,
} from "meshway";
import {
  type DebugPrimitive,
  drawNavMeshBVTree,
  drawNavMeshPortals,
  drawPath,
  drawTileBorders,
  type NavMeshColourBy,
} from "meshway/debug";
import { CrowdHelper, DebugDrawer, NavMeshHelper, TileCacheHelper } from "meshway/three";
import {
  AmbientLight,
  Box3,
  BufferAttribute,
  BufferGeometry,
  Color,
  DirectionalLight,
  Mesh,
  MeshLambertMaterial,
  PerspectiveCamera,
  Raycaster,
  Scene,
  Vector2,
  Vector3,
  WebGLRenderer,
} from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { DEMO_LEVELS, type Level, loadDemoLevel, parseLevel } from "./level.js";
import { createOptions } from "./options.js";
import {
  BUILD_STAGES,
  type BuildSummary,
  isBuildStage,
  NAVMESH_STAGES,
  type Stage,
  type WorkerReply,
  type WorkerRequest,
} from "./protocol.js";
import { ribbon } from "./ribbon.js";

type Vec3 = [number, number, number];
type Mode = "path" | "crowd" | "obstacle";
interface PathView {
  status: string;
  points: Vec3[];
  length: number;
}

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const canvas = $<HTMLCanvasElement>("canvas");
const view = $("view");
const statusText = $("status");
const progress = $<HTMLProgressElement>("progress");

// ---- state ------------------------------------------------------------------------------
let level: Level | null = null;
let navMesh: NavMesh | null = null;
let cache: TileCache | null = null;
let savedConfig: BuildConfig | null = null;
let query: NavMeshQuery | null = null;
let crowd: Crowd | null = null;
let crowdTarget: Vec3 | null = null;
let start: Vec3 | null = null;
let goal: Vec3 | null = null;
let funnel: PathView | null = null;
let shortest: PathView | null = null;
let mode: Mode = "path";
let stage: Stage = "none";
let colourBy: NavMeshColourBy = "polygon";
let builds = 0;
let navMeshVersion = 0;
let summary: BuildSummary | null = null;

function setState(state: "loading" | "building" | "ready" | "error", text: string): void {
  document.body.dataset.state = state;
  statusText.textContent = text;
  statusText.title = text;
}

// ---- three.js scene ---------------------------------------------------------------------
const probe = document.createElement("canvas").getContext("webgl2");
if (probe === null) {
  setState("error", "This browser has no WebGL2: the 3D view cannot start.");
  throw new Error("WebGL2 unavailable");
}
const renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(Math.min(2, window.devicePixelRatio));
const scene = new Scene();
scene.background = new Color(0xe6e6e6);
const camera = new PerspectiveCamera(50, 1, 0.1, 1000);
scene.add(new AmbientLight(0xffffff, 1.4));
const sun = new DirectionalLight(0xffffff, 1.8);
sun.position.set(0.4, 1, 0.3);
scene.add(sun);
// Grey level (no hue): every coloured pixel on screen is meshway's drawing.
const levelMaterial = new MeshLambertMaterial({ color: 0xb4b4b4 });
const levelMesh = new Mesh(new BufferGeometry(), levelMaterial);
scene.add(levelMesh);
const stageDrawer = new DebugDrawer();
stageDrawer.renderOrder = 2;
stageDrawer.position.y = 0.03; // just above the level surface the stages were built from
const pathDrawer = new DebugDrawer();
pathDrawer.renderOrder = 3;
scene.add(stageDrawer, pathDrawer);
let navHelper: NavMeshHelper | null = null;
let crowdHelper: CrowdHelper | null = null;
let obstacleHelper: TileCacheHelper | null = null;

// Our pointer handlers go on before OrbitControls' so a drag on an obstacle can turn it off.
canvas.addEventListener("pointerdown", onPointerDown);
canvas.addEventListener("pointermove", onPointerMove);
canvas.addEventListener("pointerup", onPointerUp);
const controls = new OrbitControls(camera, canvas);
controls.enableDamping = false;

new ResizeObserver(() => {
  const { clientWidth: w, clientHeight: h } = view;
  if (w === 0 || h === 0) return;
  renderer.setSize(w, h, false);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
}).observe(view);

let levelBounds = new Box3();

function showLevel(l: Level): void {
  const g = new BufferGeometry();
  g.setAttribute("position", new BufferAttribute(l.mesh.positions, 3));
  g.setIndex(new BufferAttribute(l.mesh.indices, 1));
  g.computeVertexNormals();
  g.computeBoundingBox();
  levelMesh.geometry.dispose();
  levelMesh.geometry = g;
  levelBounds = g.boundingBox!.clone();
  fitCamera(false);
}

function fitCamera(top: boolean): void {
  const centre = levelBounds.getCenter(new Vector3());
  const size = levelBounds.getSize(new Vector3()).length();
  camera.near = size / 500;
  camera.far = size * 10;
  // Far enough back that the level fits the narrower of the two view angles.
  const d = (size * 0.85) / Math.min(1, camera.aspect);
  const dir = top ? new Vector3(0, 1, 0.0001) : new Vector3(0.45, 0.8, 0.6);
  camera.position.copy(centre).addScaledVector(dir.normalize(), d);
  camera.updateProjectionMatrix();
  controls.target.copy(centre);
  controls.update();
}

// ---- the build worker ---------------------------------------------------------------------
const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
let requestId = 0;
let buildInFlight = false;
let buildWanted = false;
let buildTimer = 0;

const options = createOptions($("options"), () => {
  clearTimeout(buildTimer);
  buildTimer = window.setTimeout(requestBuild, 150);
});

function requestBuild(): void {
  if (level === null) return;
  if (buildInFlight) {
    buildWanted = true; // the worker is busy: one more build, with the latest settings, after it
    return;
  }
  buildInFlight = true;
  buildWanted = false;
  const id = ++requestId;
  const positions = level.mesh.positions.slice();
  const indices = level.mesh.indices.slice();
  const config: BuildConfigInput = options.config();
  progress.value = 0;
  setState("building", `building ${level.name}…`);
  const msg: WorkerRequest = { type: "build", id, source: level.name, positions, indices, config };
  worker.postMessage(msg, [positions.buffer, indices.buffer]);
}

worker.onmessage = (e: MessageEvent<WorkerReply>) => {
  const msg = e.data;
  if (msg.type === "progress") {
    progress.value = msg.fraction;
    statusText.textContent = `building… ${msg.label}`;
  } else if (msg.type === "built") {
    buildInFlight = false;
    if (buildWanted) {
      requestBuild();
      return;
    }
    install(msg.tiled, msg.bytes, msg.summary);
  } else if (msg.type === "stage") {
    if (msg.stage === stage) stageDrawer.set(msg.primitives as DebugPrimitive[]);
    if (!buildInFlight) setState("ready", summaryText());
  } else {
    buildInFlight = false;
    if (buildWanted) {
      requestBuild();
      return;
    }
    setState("error", msg.message);
  }
};
worker.onerror = (e) => {
  buildInFlight = false;
  setState("error", `build worker failed: ${e.message}`);
};

/** Puts a freshly built navmesh in: query, drawing, crowd and obstacles carried over. */
function install(tiled: boolean, bytes: Uint8Array, built: BuildSummary): void {
  const oldObstacles = cache ? cache.obstacleIds().map((id) => cache!.obstacleShape(id)!) : [];
  const oldAgents = crowd ? agentPositions() : [];
  if (tiled) {
    cache = TileCache.deserialize(bytes, level!.name);
    navMesh = cache.navMesh;
    savedConfig = null;
    for (const shape of oldObstacles) cache.addObstacle(shape);
  } else {
    const loaded = deserializeNavMesh(bytes, level!.name);
    navMesh = loaded.navMesh;
    savedConfig = loaded.config;
    cache = null;
  }
  query = new NavMeshQuery(navMesh);
  builds++;
  navMeshVersion++;
  summary = built;
  rebuildNavHelper();
  if (obstacleHelper) {
    scene.remove(obstacleHelper);
    obstacleHelper.dispose();
    obstacleHelper = null;
  }
  if (cache) {
    obstacleHelper = new TileCacheHelper(cache);
    scene.add(obstacleHelper);
  }
  $("obstacle-note").textContent = cache
    ? ""
    : "Obstacles need a tiled build (tile size > 0): the tile cache rebuilds only their tiles.";
  resetCrowd(oldAgents);
  updatePaths();
  redrawStage();
  if (!isBuildStage(stage)) setState("ready", summaryText());
}

function summaryText(): string {
  if (summary === null || level === null) return "";
  const s = summary;
  const text = `${s.polygons} polygons, ${s.vertices} vertices, ${s.tiles} tile${s.tiles === 1 ? "" : "s"}; built in ${Math.round(s.ms)} ms on a worker`;
  $("summary").textContent =
    s.warnings.length > 0 ? `${text}. Warnings: ${s.warnings.join("; ")}` : text;
  return `${level.name}: ${s.polygons} polygons`;
}

function rebuildNavHelper(): void {
  if (navHelper) {
    scene.remove(navHelper);
    navHelper.dispose();
  }
  navHelper = new NavMeshHelper(navMesh!, { colourBy });
  navHelper.renderOrder = 1;
  scene.add(navHelper);
  showNavMesh();
}

/**
 * The navmesh is hidden while a build stage is drawn (one thing at a time, as RecastDemo's draw
 * modes): contours and the polygon mesh lie at the navmesh's height and would hide under it.
 */
function showNavMesh(): void {
  if (navHelper)
    navHelper.visible = $<HTMLInputElement>("show-navmesh").checked && !isBuildStage(stage);
}

function redrawStage(): void {
  if (navMesh === null) return;
  if (isBuildStage(stage)) {
    const msg: WorkerRequest = { type: "stage", id: ++requestId, stage };
    setState("building", "drawing stage…");
    worker.postMessage(msg);
    return;
  }
  const drawings: Record<typeof stage, () => DebugPrimitive[]> = {
    none: () => [],
    bvTree: () => drawNavMeshBVTree(navMesh!),
    portals: () => drawNavMeshPortals(navMesh!),
    tileBorders: () => drawTileBorders(navMesh!),
  };
  stageDrawer.set(drawings[stage]());
}

/** The navmesh changed in place (a tile cache rebuilt tiles): paths and drawings follow. */
function navMeshChanged(): void {
  navMeshVersion++;
  updatePaths();
  if (!isBuildStage(stage)) redrawStage();
}

// ---- paths ------------------------------------------------------------------------------
const FUNNEL_RGBA = [200 / 255, 30 / 255, 40 / 255, 0.9] as const;
const SHORTEST_RGBA = [20 / 255, 90 / 255, 220 / 255, 0.9] as const;

function asView(r: ComputePathResult): PathView {
  return { status: r.status, points: r.points.map((p) => [p[0], p[1], p[2]]), length: r.length };
}

function updatePaths(): void {
  funnel = shortest = null;
  const drawn: DebugPrimitive[] = [];
  if (start && goal && query) {
    funnel = asView(query.computePath(start, goal));
    shortest = asView(findShortestPath(query, start, goal));
    // Corners as points (drawPath), legs as bands: the funnel wide and red, the exact path
    // narrower, blue and above it, so both show where they share a leg.
    drawn.push(ribbon(funnel.points, 0.5, FUNNEL_RGBA, 0.12));
    drawn.push(ribbon(shortest.points, 0.25, SHORTEST_RGBA, 0.2));
    drawn.push(...drawPath(funnel.points, undefined, 0.15).filter((p) => p.kind === "points"));
  } else if (start) {
    drawn.push(...drawPath([start], undefined, 0.15));
  }
  pathDrawer.set(drawn);
  const fmt = (p: PathView | null) =>
    p === null ? "–" : p.points.length === 0 ? p.status : `${p.length.toFixed(2)} (${p.status})`;
  $("funnel-length").textContent = fmt(funnel);
  $("shortest-length").textContent = fmt(shortest);
}

// ---- crowd ------------------------------------------------------------------------------
function agentRadius(): number {
  return Math.max(0.1, options.config().agentRadius ?? 0.6);
}

function agentPositions(): Vec3[] {
  const out: Vec3[] = [];
  if (!crowd) return out;
  const p = crowd.positions;
  for (let i = 0; i < crowd.agentCount; i++) {
    if (crowd.isActive(i)) out.push([p[i * 3]!, p[i * 3 + 1]!, p[i * 3 + 2]!]);
  }
  return out;
}

function resetCrowd(agents: Vec3[]): void {
  if (crowdHelper) {
    scene.remove(crowdHelper);
    crowdHelper.dispose();
  }
  const r = agentRadius();
  crowd = new Crowd(navMesh!, { maxAgents: 128, maxAgentRadius: r });
  for (const p of agents) addAgent(p);
  crowdHelper = new CrowdHelper(crowd, { radius: r, height: options.config().agentHeight ?? 2 });
  scene.add(crowdHelper);
  updateCrowdCount();
}

function addAgent(p: ArrayLike<number>): void {
  const id = crowd!.addAgent(p, {
    radius: agentRadius(),
    height: options.config().agentHeight ?? 2,
  });
  if (id >= 0 && crowdTarget) crowd!.requestMoveTarget(id, crowdTarget);
}

function updateCrowdCount(): void {
  const n = crowd?.activeAgentCount ?? 0;
  $("crowd-count").textContent = `${n} agent${n === 1 ? "" : "s"}`;
}

let spawnSeed = 1;
function spawnAgents(count: number): void {
  if (!crowd || !query) return;
  const rng = mulberry32(spawnSeed++);
  const filter = new QueryFilter();
  const near = start ?? goal;
  const nearRef = near ? query.findNearestPoly(near, [2, 4, 2]) : 0;
  for (let i = 0; i < count; i++) {
    const hit =
      near && nearRef !== 0
        ? query.findRandomPointAroundCircle(nearRef, near, 8, filter, rng)
        : query.findRandomPoint(filter, rng);
    if (hit.ref !== 0) addAgent(hit.point);
  }
  updateCrowdCount();
}

function sendCrowd(target: Vec3): void {
  if (!crowd) return;
  crowdTarget = target;
  for (let i = 0; i < crowd.agentCount; i++) {
    if (crowd.isActive(i)) crowd.requestMoveTarget(i, target);
  }
}

// ---- obstacles --------------------------------------------------------------------------
const OBSTACLE_RADIUS = 1.2;
const OBSTACLE_HEIGHT = 2.5;

function cylinderAt(p: Vec3): ObstacleShape {
  // Starts a little below the floor it stands on (see ObstacleShape).
  return {
    kind: "cylinder",
    center: [p[0], p[1] - 0.5, p[2]],
    radius: OBSTACLE_RADIUS,
    height: OBSTACLE_HEIGHT,
  };
}

function obstacleUnder(p: Vec3): number {
  if (!cache) return 0;
  for (const id of cache.obstacleIds()) {
    const s = cache.obstacleShape(id);
    if (s?.kind !== "cylinder") continue;
    const dx = s.center[0] - p[0];
    const dz = s.center[2] - p[2];
    if (dx * dx + dz * dz <= (s.radius + 0.3) ** 2 && Math.abs(s.center[1] - p[1]) < 3) return id;
  }
  return 0;
}

// ---- picking and clicks -----------------------------------------------------------------
const raycaster = new Raycaster();
const ndc = new Vector2();
let down: { x: number; y: number; t: number } | null = null;
let dragging = 0;

function pick(e: PointerEvent): Vec3 | null {
  const rect = canvas.getBoundingClientRect();
  ndc.set(
    ((e.clientX - rect.left) / rect.width) * 2 - 1,
    -((e.clientY - rect.top) / rect.height) * 2 + 1,
  );
  raycaster.setFromCamera(ndc, camera);
  const targets = navHelper ? [levelMesh, navHelper.mesh] : [levelMesh];
  const hit = raycaster.intersectObjects(targets, false)[0];
  return hit ? [hit.point.x, hit.point.y, hit.point.z] : null;
}

function onPointerDown(e: PointerEvent): void {
  if (e.button !== 0) return;
  down = { x: e.clientX, y: e.clientY, t: performance.now() };
  if (mode === "obstacle") {
    const p = pick(e);
    dragging = p ? obstacleUnder(p) : 0;
    if (dragging !== 0) {
      controls.enabled = false;
      canvas.setPointerCapture(e.pointerId);
    }
  }
}

function onPointerMove(e: PointerEvent): void {
  if (dragging === 0 || !cache) return;
  const p = pick(e);
  if (p) cache.updateObstacle(dragging, cylinderAt(p));
}

function onPointerUp(e: PointerEvent): void {
  const wasDragging = dragging !== 0;
  if (wasDragging) {
    dragging = 0;
    controls.enabled = true;
  }
  if (down === null) return;
  const moved = Math.hypot(e.clientX - down.x, e.clientY - down.y);
  down = null;
  if (wasDragging || moved > 6) return; // an orbit or an obstacle drag, not a click
  const p = pick(e);
  if (p) click(p);
}

function click(p: Vec3): void {
  if (mode === "path") {
    if (start === null || goal !== null) {
      start = p;
      goal = null;
    } else {
      goal = p;
    }
    updatePaths();
  } else if (mode === "crowd") {
    sendCrowd(p);
  } else if (cache) {
    cache.addObstacle(cylinderAt(p));
  }
}

// ---- controls ---------------------------------------------------------------------------
const levelSelect = $<HTMLSelectElement>("level");
for (const name of Object.keys(DEMO_LEVELS)) levelSelect.add(new Option(name, name));
levelSelect.addEventListener("change", () => {
  void loadLevel(() => loadDemoLevel(levelSelect.value));
});
$<HTMLInputElement>("file").addEventListener("change", (e) => {
  const file = (e.target as HTMLInputElement).files?.[0];
  if (file) void openFile(file);
});
view.addEventListener("dragover", (e) => e.preventDefault());
view.addEventListener("drop", (e) => {
  e.preventDefault();
  const file = e.dataTransfer?.files[0];
  if (file) void openFile(file);
});

async function openFile(file: File): Promise<void> {
  levelSelect.selectedIndex = -1; // no demo level is shown now
  await loadLevel(async () => parseLevel(file.name, await file.arrayBuffer()));
}

async function loadLevel(get: () => Promise<Level>): Promise<void> {
  setState("loading", "loading level…");
  try {
    level = await get();
  } catch (err) {
    setState("error", err instanceof Error ? err.message : String(err));
    return;
  }
  start = goal = crowdTarget = null;
  if (crowd) crowd = null;
  if (cache) cache = null; // obstacles belong to the old level
  showLevel(level);
  requestBuild();
}

for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="mode"]')) {
  radio.addEventListener("change", () => {
    mode = radio.value as Mode;
    for (const m of ["path", "crowd", "obstacle"]) $(`mode-${m}`).hidden = m !== mode;
  });
}
$("spawn").addEventListener("click", () => spawnAgents(10));
$("clear-crowd").addEventListener("click", () => {
  crowdTarget = null;
  if (navMesh) resetCrowd([]);
});
$("clear-obstacles").addEventListener("click", () => {
  if (cache) for (const id of cache.obstacleIds()) cache.removeObstacle(id);
});

const stageSelect = $<HTMLSelectElement>("stage");
for (const [value, label] of [...Object.entries(NAVMESH_STAGES), ...Object.entries(BUILD_STAGES)]) {
  stageSelect.add(new Option(label, value));
}
stageSelect.addEventListener("change", () => {
  stage = stageSelect.value as Stage;
  stageDrawer.clear();
  showNavMesh();
  redrawStage();
});
$<HTMLSelectElement>("colour-by").addEventListener("change", (e) => {
  colourBy = (e.target as HTMLSelectElement).value as NavMeshColourBy;
  if (navMesh) rebuildNavHelper();
});
$<HTMLInputElement>("show-level").addEventListener("change", (e) => {
  levelMesh.visible = (e.target as HTMLInputElement).checked;
});
$<HTMLInputElement>("show-navmesh").addEventListener("change", showNavMesh);
$("top-view").addEventListener("click", () => fitCamera(true));
$("save").addEventListener("click", () => {
  if (!navMesh || !level) return;
  const bytes = serializeNavMesh(navMesh, cache ? cache.config : savedConfig);
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>]));
  a.download = `${level.name.replace(/\.[^.]*$/, "")}.navmesh`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
});
$("hint").textContent = "drag: orbit · right-drag: pan · wheel / pinch: zoom";

// ---- frame loop -------------------------------------------------------------------------
// Draws only when something may have changed (an input, a build, the camera, a moving crowd or
// pending tiles): a software-rendered WebGL (no GPU) then leaves the cores to the build worker.
let dirty = true;
const invalidate = (): void => {
  dirty = true;
};
for (const type of ["input", "change", "click", "pointerup", "pointermove", "wheel"]) {
  document.addEventListener(type, invalidate, { capture: true, passive: true });
}
controls.addEventListener("change", invalidate);
worker.addEventListener("message", invalidate);
new ResizeObserver(invalidate).observe(view);

let last = performance.now();
function frame(now: number): void {
  // Long frames (a slow software renderer) still advance the crowd in real time, in steps
  // the simulation takes well.
  let dt = Math.min(0.25, (now - last) / 1000);
  last = now;
  if (cache && cache.pending > 0) {
    if (cache.update(4).rebuilt > 0) navMeshChanged();
    dirty = true;
  }
  if (crowd && crowd.agentCount > 0) {
    for (; dt > 1e-4; dt -= 0.05) crowd.update(Math.min(dt, 0.05));
    const v = crowd.velocities;
    for (let i = 0; i < crowd.agentCount * 3 && !dirty; i++)
      if (Math.abs(v[i]!) > 1e-3) dirty = true;
  }
  if (dirty) {
    dirty = false;
    renderer.render(scene, camera);
  }
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);

// ---- test hook (read by test/browser/playground.test.ts) ----------------------------------
const hook = {
  get state() {
    return document.body.dataset.state;
  },
  get builds() {
    return builds;
  },
  get navMeshVersion() {
    return navMeshVersion;
  },
  get level() {
    return level?.name ?? null;
  },
  config: () => options.config(),
  path: () => ({ start, goal, funnel, shortest }),
  agents: () => agentPositions(),
  obstacles: () => (cache ? cache.obstacleIds().map((id) => cache!.obstacleShape(id)!) : []),
  /** Tiles still waiting for the tile cache's rebuild. */
  pendingTiles: () => cache?.pending ?? 0,
  /** Polygons in the navmesh as it stands (follows obstacles; `polygons` is the build's). */
  livePolygons: () => navMesh?.tiles.reduce((n, t) => n + t.polyCount, 0) ?? 0,
  polygons: () => summary?.polygons ?? 0,
  stageSets: () => stageDrawer.drawnCount,
  /** A world point's position on the page (CSS pixels), and whether it is in front of the camera. */
  project(p: Vec3): [number, number] {
    const v = new Vector3(p[0], p[1], p[2]).project(camera);
    const rect = canvas.getBoundingClientRect();
    return [rect.left + ((v.x + 1) / 2) * rect.width, rect.top + ((1 - v.y) / 2) * rect.height];
  },
};
(window as unknown as { __playground: typeof hook }).__playground = hook;

void loadLevel(() => loadDemoLevel(levelSelect.value));
