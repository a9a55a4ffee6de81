import cluster, { type Worker } from "node:cluster";
import { gatherMetricsForProcesses } from "./metrics-processes";

// Several processes answering on one port (SITE_PROCESSES, decision 047). The site's JavaScript runs
// on one thread per process; on PostgreSQL, where every process shares the sales, the holds, the rate
// limits, the spent challenges and the announcements, more processes use more cores. This, the
// first process of `npm start`, only starts and watches them: Node's cluster hands each new
// connection to one of them in turn.
//
// The first is started alone and the others once it answers, so that one process makes what a new
// database needs (the migrations, the first staff account, the site's secrets, the content) before
// the others read it. A process that stops unexpectedly is replaced, after a pause that grows while
// replacements keep failing before they answer (a database that is down), so it never spins.

export interface ProcessesOptions {
  count: number;
  /** The address the site answers at, for the one line that says it is up. */
  announce(port: number): void;
}

const pauses = { firstMs: 1_000, longestMs: 30_000 };

export function runProcesses({ count, announce }: ProcessesOptions) {
  gatherMetricsForProcesses();
  const answering = new Set<Worker>();
  const numbers = new Map<Worker, number>();
  let stopping = false;
  let othersStarted = false;
  let announced = false;
  let pauseMs = pauses.firstMs;

  function start(number: number) {
    const worker = cluster.fork({ SITE_PROCESS: `${number} of ${count}` });
    numbers.set(worker, number);
  }

  cluster.on("listening", (worker, address) => {
    answering.add(worker);
    pauseMs = pauses.firstMs;
    if (!othersStarted) {
      othersStarted = true;
      for (let number = 2; number <= count; number += 1) start(number);
    }
    if (!announced && answering.size === count) {
      announced = true;
      announce(address.port);
    }
  });

  cluster.on("exit", (worker, code, signal) => {
    const number = numbers.get(worker) ?? 0;
    const answered = answering.delete(worker);
    numbers.delete(worker);
    if (stopping) {
      if (code !== 0 && code !== null) process.exitCode = 1;
      if (numbers.size === 0) process.exit();
      return;
    }
    const how = signal ? `was stopped by ${signal}` : `stopped with code ${code}`;
    if (!announced && !answered) {
      // A process that could not start (a bad configuration, a database that refuses): the site
      // cannot start either. Its own message, above, says why.
      process.exitCode = 1;
      stopAll(`Process ${number} of ${count} ${how} before it answered: the site is stopping.`);
      return;
    }
    console.error(
      `Process ${number} of ${count} (pid ${worker.process.pid}) ${how}: another takes its place in ${pauseMs / 1000} s.`,
    );
    const pause = pauseMs;
    pauseMs = Math.min(pauseMs * 2, pauses.longestMs);
    setTimeout(() => {
      if (!stopping) start(number);
    }, pause).unref();
  });

  /** Asks every process to finish its requests in flight and close (each does as on its own), then exits. */
  function stopAll(why: string) {
    if (stopping) return;
    stopping = true;
    console.log(why);
    for (const worker of numbers.keys()) worker.process.kill("SIGTERM");
    if (numbers.size === 0) process.exit();
  }
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => stopAll(`${signal} received: each process finishes its requests in flight, then stops.`));
  }

  start(1);
}
