// A navmesh from a three.js scene, then click to move: the clicked ground point becomes the
// goal, meshway's computePath gives the corners, and the agent walks along them.
import { buildNavMesh, NavMeshQuery } from "meshway";
import { drawPath } from "meshway/debug";
import { DebugDrawer, getPositionsAndIndices, NavMeshHelper } from "meshway/three";
import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";

const scene = new THREE.Scene();
const camera = new THREE.PerspectiveCamera(50, innerWidth / innerHeight, 0.1, 200);
camera.position.set(0, 28, 26);
const renderer = new THREE.WebGLRenderer({ antialias: true, alpha: true });
renderer.setSize(innerWidth, innerHeight);
document.body.append(renderer.domElement);
new OrbitControls(camera, renderer.domElement); // drag to orbit, click to move
scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 2.5));

// The level: a floor, a ramp and some crates, as ordinary three.js meshes.
const level = new THREE.Group();
const stone = new THREE.MeshLambertMaterial({ color: 0xb8b0a0 });
const box = (w: number, h: number, d: number, x: number, y: number, z: number, rx = 0) => {
  const m = new THREE.Mesh(new THREE.BoxGeometry(w, h, d), stone);
  m.position.set(x, y, z);
  m.rotation.x = rx;
  level.add(m);
};
box(30, 1, 30, 0, -0.5, 0);
box(4, 3, 4, -6, 1.5, -4);
box(10, 1.5, 2, 4, 0.75, 3);
box(3, 3, 3, 7, 1.5, -7);
box(3, 0.4, 10, -10, 1, 6, -0.2);
scene.add(level);

// Triangles from the scene (world space), a navmesh, and its helper.
const { navMesh } = buildNavMesh(getPositionsAndIndices(level), { agentRadius: 0.4 });
scene.add(new NavMeshHelper(navMesh));
const query = new NavMeshQuery(navMesh);

const agent = new THREE.Mesh(
  new THREE.CylinderGeometry(0.4, 0.4, 1.8).translate(0, 0.9, 0),
  new THREE.MeshLambertMaterial({ color: 0x1e963c }),
);
agent.position.set(-12, 0, -12);
const pathDrawer = new DebugDrawer();
scene.add(agent, pathDrawer);

let corners: number[][] = [];
const ray = new THREE.Raycaster();
renderer.domElement.addEventListener("click", (e) => {
  ray.setFromCamera(
    new THREE.Vector2((e.clientX / innerWidth) * 2 - 1, -(e.clientY / innerHeight) * 2 + 1),
    camera,
  );
  const hit = ray.intersectObject(level, true)[0];
  if (!hit) return;
  const path = query.computePath(agent.position.toArray(), hit.point.toArray());
  corners = path.points.slice(1);
  pathDrawer.set(drawPath(path.points));
  document.querySelector("#info")!.textContent = `${path.status}: ${path.length.toFixed(2)} m`;
});

const clock = new THREE.Clock();
renderer.setAnimationLoop(() => {
  let step = clock.getDelta() * 5; // metres this frame
  while (step > 0 && corners.length > 0) {
    const to = new THREE.Vector3(...corners[0]!);
    const d = agent.position.distanceTo(to);
    agent.position.lerp(to, Math.min(1, step / d));
    if (d <= step) corners.shift();
    step -= d;
  }
  renderer.render(scene, camera);
  document.body.dataset.ready = "true";
});
addEventListener("resize", () => {
  camera.aspect = innerWidth / innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(innerWidth, innerHeight);
});
