/** Where a command writes: stdout and stderr, swappable in tests. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

/**
 * A warning line: `meshway: warning: <what>` — never the error format (`meshway: <file>: …`),
 * so a script reading stderr can tell a warning from the reason for a failure.
 */
export function warn(io: Io, text: string): void {
  io.err(`meshway: warning: ${text}\n`);
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};
