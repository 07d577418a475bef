// Writes a bench scene as OBJ text (for CLI runs such as docs/scale.md's worked example).
// Usage: node bench/scene-obj.js huge > huge.obj   (scenes: large, huge, nav_test, dungeon, undulating)
import { createWriteStream } from "node:fs";
import { loadScene } from "./scenes.js";

const name = process.argv[2] ?? "huge";
const mesh = loadScene(name);
const out = process.argv[3] ? createWriteStream(process.argv[3]) : process.stdout;
const p = mesh.positions;
const ix = mesh.indices;
// In chunks: a 1M-triangle scene is ~60 MB of text.
let chunk = [];
const flush = () => {
  out.write(`${chunk.join("\n")}\n`);
  chunk = [];
};
for (let i = 0; i < p.length; i += 3) {
  chunk.push(`v ${p[i]} ${p[i + 1]} ${p[i + 2]}`);
  if (chunk.length === 65536) flush();
}
for (let i = 0; i < ix.length; i += 3) {
  chunk.push(`f ${ix[i] + 1} ${ix[i + 1] + 1} ${ix[i + 2] + 1}`);
  if (chunk.length === 65536) flush();
}
flush();
if (out !== process.stdout) out.end();
