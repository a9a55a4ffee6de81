/**
 * Work the server process does by itself (refunds still to make, the office's e-mails): now, every
 * `intervalMs`, and at once when asked (`kick`, after a cancellation). One run at a time in this
 * process; a kick during a run asks for one more run straight after it. What the work must not do
 * twice across processes, its own keys and row locks prevent (docs/decisions/015-bookings-and-refunds.md).
 */
export class BackgroundJob {
  /**
   * When a run last began or ended, in the process's monotonic milliseconds (`performance.now()`):
   * the readiness check asks that it is recent (server/readiness.ts). Undefined before the first run.
   */
  lastActive: number | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    /** How the log names it when a run fails. */
    private readonly name: string,
    /** One run; `shouldStop` turns true when the server is stopping, so a long run can end early. */
    private readonly work: (shouldStop: () => boolean) => Promise<void>,
    private readonly intervalMs: number,
  ) {}

  /** Starts the timer, and resolves once the first run is over. */
  start(): Promise<void> {
    this.stopped = false;
    this.timer ??= setInterval(() => void this.kick(), this.intervalMs);
    this.timer.unref();
    return this.kick();
  }

  /** Runs now, or once more straight after the run under way. */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          this.lastActive = performance.now();
          await this.work(() => this.stopped);
        } while (this.again && !this.stopped);
      } catch (error) {
        console.error(`${this.name} stopped for now:`, (error as Error).message);
      } finally {
        this.lastActive = performance.now();
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Stops the timer and waits for the run under way. */
  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
