// Child process for peak-RSS measurement: one build of one mesh by one builder.
import { makeBuilders } from "./builders.js";
import { loadScene } from "./scenes.js";

const [builderName, sceneName] = process.argv.slice(2);
const mesh = loadScene(sceneName);
const builders = await makeBuilders({}, [builderName]);
const before = process.resourceUsage().maxRSS;
builders[builderName](mesh);
const peak = process.resourceUsage().maxRSS;
process.stdout.write(JSON.stringify({ before, peak }));
