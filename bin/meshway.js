#!/usr/bin/env node
import { main } from "../dist/cli.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    // A bug, not bad input: say so plainly, with the stack for the report.
    process.stderr.write(`meshway: internal error: ${error?.stack ?? error}\n`);
    process.exitCode = 70;
  },
);
