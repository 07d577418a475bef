// A crowd in three.js: 40 agents in a ring each walk to the opposite side, avoiding each other
// and the pillars; click the ground to send them all there. CrowdHelper draws the agents
// (instanced, from crowd.positions) and, for debugging, their desired velocities and corners.
import { buildNavMesh, Crowd } from "meshway";
import { CrowdHelper, getPositionsAndIndices, NavMeshHelper } from "meshway/three";
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

// The level: a floor and four pillars, as ordinary three.js meshes.
const level = new THREE.Group();
const stone = new THREE.MeshLambertMaterial({ color: 0xb8b0a0 });
const floor = new THREE.Mesh(new THREE.BoxGeometry(34, 1, 34), stone);
floor.position.y = -0.5;
level.add(floor);
for (const [x, z] of [
  [-4, -4],
  [4, -4],
  [-4, 4],
  [4, 4],
]) {
  const pillar = new THREE.Mesh(new THREE.BoxGeometry(2, 3, 2), stone);
  pillar.position.set(x!, 1.5, z!);
  level.add(pillar);
}
scene.add(level);

const { navMesh } = buildNavMesh(getPositionsAndIndices(level), { agentRadius: 0.4 });
scene.add(new NavMeshHelper(navMesh));

// 40 agents on a circle, each heading for the point opposite.
const crowd = new Crowd(navMesh, { maxAgents: 64, maxAgentRadius: 0.4 });
for (let i = 0; i < 40; i++) {
  const a = (i / 40) * 2 * Math.PI;
  const id = crowd.addAgent([Math.cos(a) * 13, 0, Math.sin(a) * 13], {
    radius: 0.4,
    height: 1.8,
    maxSpeed: 3.5,
  });
  crowd.requestMoveTarget(id, [-Math.cos(a) * 13, 0, -Math.sin(a) * 13]);
}
const helper = new CrowdHelper(crowd, { radius: 0.4, height: 1.8, debug: { corners: true } });
scene.add(helper);

const ray = new THREE.Raycaster();
renderer.domElement.addEventListener("click", (e) => {
  const at = new THREE.Vector2(
    (e.clientX / innerWidth) * 2 - 1,
    -(e.clientY / innerHeight) * 2 + 1,
  );
  ray.setFromCamera(at, camera);
  const hit = ray.intersectObject(level, true)[0];
  if (!hit) return;
  for (let id = 0; id < crowd.agentCount; id++) {
    if (crowd.isActive(id)) crowd.requestMoveTarget(id, hit.point.toArray());
  }
});

const clock = new THREE.Clock();
renderer.setAnimationLoop(() => {
  crowd.update(Math.min(clock.getDelta(), 0.1)); // CrowdHelper follows in updateMatrixWorld
  renderer.render(scene, camera);
  const moving = crowd.velocities.some((v) => Math.abs(v) > 0.1);
  document.querySelector("#info")!.textContent =
    `${crowd.activeAgentCount} agents, ${moving ? "walking" : "arrived"}`;
  document.body.dataset.ready = "true";
});
addEventListener("resize", () => {
  camera.aspect = innerWidth / innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(innerWidth, innerHeight);
});
