// Child of bench/tiled-cli.bench.js: one `meshway build …` run as bin/meshway.js does it, with
// its wall time (from process start: import included) and CPU time (all threads) printed as JSON.
// Usage: node bench/tiled-cli-once.js <meshway build arguments>
import { main } from "../dist/cli.js";

const code = await main(process.argv.slice(2));
if (code !== 0) throw new Error(`meshway build exited with ${code}`);
const cpu = process.cpuUsage();
// The last line of stdout, whatever the CLI printed before it.
process.stdout.write(
  `\n${JSON.stringify({ wallMs: performance.now(), cpuMs: (cpu.user + cpu.system) / 1000 })}\n`,
);
