// Obstacles at run time: a tile cache keeps each tile's heightfield, so adding or moving an
// obstacle rebuilds only the tiles it touches. A crate circles the yard, a click drops a barrel,
// and the path from corner to corner is recomputed as the navmesh changes.
import { createTileCache, NavMeshQuery, type ObstacleShape } from "meshway";
import { drawPath } from "meshway/debug";
import { DebugDrawer, getPositionsAndIndices, NavMeshHelper, TileCacheHelper } from "meshway/three";
import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";

const scene = new THREE.Scene();
const camera = new THREE.PerspectiveCamera(50, innerWidth / innerHeight, 0.1, 200);
camera.position.set(0, 30, 24);
const renderer = new THREE.WebGLRenderer({ antialias: true, alpha: true });
renderer.setSize(innerWidth, innerHeight);
document.body.append(renderer.domElement);
new OrbitControls(camera, renderer.domElement);
scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 2.5));

const floor = new THREE.Mesh(
  new THREE.BoxGeometry(32, 1, 32).translate(0, -0.5, 0),
  new THREE.MeshLambertMaterial({ color: 0xb8b0a0 }),
);
scene.add(floor);

// A tiled navmesh (tiles of 16 cells, 4.8 m) with a cache of their heightfields.
const { navMesh, cache } = createTileCache(getPositionsAndIndices(floor), {
  tileSize: 16,
  agentRadius: 0.4,
});
scene.add(new NavMeshHelper(navMesh), new TileCacheHelper(cache));
const query = new NavMeshQuery(navMesh);
const pathDrawer = new DebugDrawer();
scene.add(pathDrawer);

const crate = (t: number): ObstacleShape => ({
  kind: "orientedBox",
  center: [Math.cos(t) * 7, 0.75, Math.sin(t) * 7],
  halfExtents: [2.5, 0.75, 0.6],
  yawRadians: t,
});
const crateId = cache.addObstacle(crate(0));

const ray = new THREE.Raycaster();
renderer.domElement.addEventListener("click", (e) => {
  const at = new THREE.Vector2(
    (e.clientX / innerWidth) * 2 - 1,
    -(e.clientY / innerHeight) * 2 + 1,
  );
  ray.setFromCamera(at, camera);
  const hit = ray.intersectObject(floor)[0];
  if (hit)
    cache.addObstacle({ kind: "cylinder", center: hit.point.toArray(), radius: 1.2, height: 2 });
});

const clock = new THREE.Clock();
let moved = 0;
renderer.setAnimationLoop(() => {
  const t = clock.getElapsedTime();
  if (t - moved > 0.25) {
    cache.updateObstacle(crateId, crate(t * 0.4)); // four moves a second are plenty
    moved = t;
  }
  const { rebuilt } = cache.update(4); // at most ~4 ms of tile rebuilds per frame
  if (rebuilt > 0 || pathDrawer.drawnCount === 0) {
    const path = query.computePath([-14, 0, -14], [14, 0, 14]);
    pathDrawer.set(drawPath(path.points));
    const obstacles = cache.obstacleIds().length;
    document.querySelector("#info")!.textContent =
      `${obstacles} obstacles, path ${path.length.toFixed(2)} m`;
  }
  renderer.render(scene, camera); // the helpers follow the cache in updateMatrixWorld
  document.body.dataset.ready = "true";
});
addEventListener("resize", () => {
  camera.aspect = innerWidth / innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(innerWidth, innerHeight);
});
