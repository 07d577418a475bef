/**
 * A one-line progress bar on stderr, only when stderr is a terminal and the caller allows
 * it; it appears only for work that has already taken over a second.
 */
export class Progress {
  private readonly start = performance.now();
  private shown = false;
  private done = 0;

  constructor(
    private readonly total: number,
    private readonly enabled: boolean,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  static for(total: number, quiet: boolean): Progress {
    return new Progress(total, !quiet && process.stderr.isTTY === true);
  }

  step(label: string): void {
    this.done = Math.min(this.total, this.done + 1);
    if (!this.enabled || performance.now() - this.start < 1000) return;
    const width = 24;
    const filled = Math.round((this.done / this.total) * width);
    const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
    this.stream.write(`\r${bar} ${this.done}/${this.total} ${label.padEnd(16)}`);
    this.shown = true;
  }

  finish(): void {
    if (this.shown) this.stream.write("\r\x1b[K");
  }
}
