import { afterEach, describe, expect, it, vi } from "vitest";
import { BackgroundJob } from "./background-job.server";

describe("a background job", () => {
  const jobs: BackgroundJob[] = [];
  afterEach(async () => {
    await Promise.all(jobs.map((job) => job.stop()));
    vi.restoreAllMocks();
  });

  it("runs at start, once at a time, and once more when kicked during a run", async () => {
    let runs = 0;
    let release = () => {};
    const job = new BackgroundJob(
      "Test job",
      async () => {
        runs += 1;
        if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
      },
      60_000,
    );
    jobs.push(job);
    const started = job.start();
    // Two kicks while the first run waits: one more run, not two, and not at the same time.
    const kicked = [job.kick(), job.kick()];
    expect(runs).toBe(1);
    release();
    await Promise.all([started, ...kicked]);
    expect(runs).toBe(2);
  });

  it("keeps going after a failed run, and tells a long run the server is stopping", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    let fail = true;
    const job = new BackgroundJob(
      "Refunds",
      async () => {
        if (fail) throw new Error("provider down");
      },
      60_000,
    );
    jobs.push(job);
    await job.start();
    expect(errors).toHaveBeenCalledWith("Refunds stopped for now:", "provider down");
    fail = false;
    await job.kick();
    expect(errors).toHaveBeenCalledTimes(1);

    let sawStop = false;
    let stopping = () => {};
    const long = new BackgroundJob(
      "Long job",
      async (shouldStop) => {
        await new Promise<void>((resolve) => (stopping = resolve));
        sawStop = shouldStop();
      },
      60_000,
    );
    const running = long.start();
    const stopped = long.stop();
    stopping();
    await Promise.all([running, stopped]);
    expect(sawStop).toBe(true);
    // A stopped job does not run again.
    await long.kick();
  });
});
