// Deep fuzz runs on dist/: `npm run fuzz -- <cases per target> [--target name] [--seed n]
// [--replay <seed>:<path> --target name]`. For each target prints the cases run, the failures
// and, per failure, the seed, path and counterexample to replay it; exits 1 when any failed.
// Runs go in chunks with consecutive seeds so one failure does not end a target's run: each
// chunk stops at its first failure (shrunk), the next chunk carries on.
import fc from "fast-check";
import { targets } from "../fuzz/targets.js";

const args = process.argv.slice(2);
function option(name) {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
}
const only = option("--target");
const seedArg = option("--seed");
const replay = option("--replay");
const chunkArg = option("--chunk");
const count = Number(args[0] ?? 1000);
if (!Number.isInteger(count) || count < 1 || args.length > 1) {
  console.error("usage: npm run fuzz -- <cases per target> [--target name] [--seed n] [--chunk n]");
  console.error("       npm run fuzz -- 1 --target name --replay <seed>:<path>");
  process.exit(2);
}
const baseSeed = seedArg === undefined ? 20261129 : Number(seedArg);
const chunk = Math.max(1, Number(chunkArg ?? 2000));

const selected = targets.filter((t) => only === undefined || t.name === only);
if (selected.length === 0) {
  console.error(`unknown target ${only}; targets: ${targets.map((t) => t.name).join(", ")}`);
  process.exit(2);
}

function show(value) {
  const text = fc.stringify(value);
  return text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length} characters)` : text;
}

let failedTargets = 0;
for (const target of selected) {
  const outcomes = new Map();
  const property = fc.asyncProperty(target.arbitrary, async (v) => {
    const outcome = await target.check(v);
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  });
  const failures = [];
  let run = 0;
  const started = performance.now();
  if (replay !== undefined) {
    const [seed, path] = replay.split(":");
    const r = await fc.check(property, {
      seed: Number(seed),
      path,
      numRuns: 1,
      endOnFailure: true,
    });
    run = r.numRuns;
    if (r.failed) failures.push({ seed: Number(seed), path, r });
  } else {
    for (let k = 0; run < count; k++) {
      const seed = baseSeed + k;
      const numRuns = Math.min(chunk, count - run);
      const r = await fc.check(property, { seed, numRuns });
      // On failure fast-check reports the runs up to and including the failing one.
      run += r.failed ? r.numRuns : numRuns;
      if (r.failed) failures.push({ seed, path: r.counterexamplePath, r });
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${target.name}: ${run} cases, ${failures.length} failures (${seconds} s)`);
  // Outcomes of every case tried, shrinking included: shows how deep the cases reach.
  const tally = [...outcomes].sort((a, b) => b[1] - a[1]);
  console.log(`  outcomes: ${tally.map(([k, n]) => `${k} ${n}`).join(", ")}`);
  for (const { seed, path, r } of failures) {
    const error = r.errorInstance ?? r.error;
    const message = error instanceof Error ? error.message : String(error);
    console.log(`  FAIL seed ${seed} path ${path}`);
    console.log(`    replay: npm run fuzz -- 1 --target ${target.name} --replay ${seed}:${path}`);
    console.log(`    counterexample: ${show(r.counterexample)}`);
    console.log(`    ${message.split("\n").slice(0, 8).join("\n    ")}`);
  }
  if (failures.length > 0) failedTargets++;
}
process.exit(failedTargets > 0 ? 1 : 0);
