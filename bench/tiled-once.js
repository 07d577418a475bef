// Child process for peak-RSS measurement: one tiled build of one scene by one builder.
// Usage: node bench/tiled-once.js <wasm|meshway-N> <scene> <tileSize>
import { loadScene } from "./scenes.js";
import { makeTiledBuilders } from "./tiled-builders.js";

const [builderName, sceneName, tileSize] = process.argv.slice(2);
const mesh = loadScene(sceneName);
const builders = await makeTiledBuilders(Number(tileSize), [builderName]);
const before = process.resourceUsage().maxRSS;
const result = await builders[builderName](mesh);
const peak = process.resourceUsage().maxRSS;
await builders.close();
process.stdout.write(JSON.stringify({ before, peak, ...result }));
