// `npm run bench -- feed`: the live availability feed with 10,000 subscribers on one process
// (issue 15: sale to last update p99 under 1 s, under 10 KB of server memory per subscriber).
//
// For each database: a new production site with one event; the site's resident memory; 10,000
// subscriptions to /api/live/availability opened from load-generator processes
// (./feed-subscribers.ts), each subscriber a visitor of its own address (X-Forwarded-For, as the
// site trusts one proxy), until every one has its snapshot; the memory again (per subscriber: the
// difference / the subscribers); then sales one after another, each a buyer holding one seat and
// paying with the offline test card, and for each subscriber the time from the payment's request
// to the moment its update (the event's new `sold` count) arrived. The payment's request is sent
// before the sale commits, so the times are an upper bound on commit-to-update.
//
// Every connection is an open file, in the site and in the load generators: the benchmark raises
// its own soft limit (which the processes it starts inherit) to the hard limit with `prlimit`,
// and says so if that is still too few.
import { execFileSync, fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { staffAccount, type RunningSite } from "../../tests/support/site-process";
import type { FromSubscribers, ToSubscribers } from "./feed-subscribers";
import { createBenchEvent, signedInCookie, testCard } from "./staff-api";

/** Wall-clock milliseconds with a fraction, comparable between processes on one machine. */
const wallClock = () => performance.timeOrigin + performance.now();

export const feed = {
  subscribers: Number(process.env.BENCH_FEED_SUBSCRIBERS ?? 10_000),
  /** Load-generator processes, each holding its share of the subscribers. */
  generators: 4,
  sales: Number(process.env.BENCH_FEED_SALES ?? 20),
  /** How long a sale's update may take to reach everyone before the benchmark stops waiting for it. */
  patienceMs: 15_000,
};

type Engine = "embedded" | "postgres";
export type StartSite = (engine: Engine) => Promise<RunningSite & { database: string }>;

const here = path.dirname(fileURLToPath(import.meta.url));

/** A process's resident memory in KB (Linux). */
function residentKB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
}

/** A process's open-file limits (Linux), from /proc/<pid>/limits. */
export function openFileLimits(pid: number | "self" = "self"): { soft: number; hard: number } {
  const line = fs
    .readFileSync(`/proc/${pid}/limits`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("Max open files"));
  const [soft, hard] = (line?.split(/\s{2,}/).slice(1, 3) ?? []).map((v) => (v === "unlimited" ? Infinity : Number(v)));
  return { soft: soft ?? NaN, hard: hard ?? NaN };
}

/** Raises this process's soft open-file limit to its hard limit, so what it starts inherits it. */
function raiseOpenFiles(): { soft: number; hard: number } {
  const before = openFileLimits();
  if (before.soft < before.hard) {
    const hard = before.hard === Infinity ? "unlimited" : String(before.hard);
    try {
      execFileSync("prlimit", ["--pid", String(process.pid), `--nofile=${hard}:${hard}`]);
    } catch (error) {
      console.log(`Could not raise the open-file limit with prlimit: ${(error as Error).message}`);
    }
  }
  return openFileLimits();
}

async function createEvent(site: RunningSite): Promise<string> {
  const cookie = await signedInCookie(site.url, staffAccount);
  const event = await createBenchEvent(site.url, cookie, {
    name: "Live Feed Night",
    description: "Ten thousand people watching the seats go.",
    seats: 500,
  });
  return event.id;
}

/** One buyer holds a seat and pays with the offline test card; resolves with when the payment was asked for. */
async function sell(site: RunningSite, eventId: string, buyer: number) {
  // Buyers' addresses are apart from the subscribers' (198.18.x.x).
  const address = `198.19.${buyer >> 8}.${buyer & 255}`;
  const headers = { "Content-Type": "application/json", Origin: site.url, "X-Forwarded-For": address };
  const started = await fetch(site.url + "/api/bookings", {
    method: "POST",
    headers,
    body: JSON.stringify({ eventId, name: "Feed Buyer", email: `feed-buyer${buyer}@example.org`, quantity: 1 }),
  });
  if (started.status !== 201) throw new Error(`A booking answered ${started.status}: ${await started.text()}`);
  const { clientSecret } = (await started.json()) as { clientSecret: string };
  // The hold's own update goes out first; the sale measured is the payment's.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const asked = wallClock();
  const paid = await fetch(site.url + "/api/payments/offline/confirm", {
    method: "POST",
    headers,
    body: JSON.stringify({ clientSecret, card: testCard() }),
  });
  const answered = wallClock();
  if (paid.status !== 200) throw new Error(`A payment answered ${paid.status}: ${await paid.text()}`);
  return { asked, answered };
}

class Generator {
  private readonly waiting = new Map<string, { resolve(message: FromSubscribers): void; reject(error: Error): void }>();
  constructor(readonly child: ChildProcess) {
    child.on("message", (message: FromSubscribers) => {
      const key = message.type === "arrivals" ? `arrivals:${message.sold}` : message.type;
      this.waiting.get(key)?.resolve(message);
      this.waiting.delete(key);
    });
    child.once("exit", (code) => {
      for (const { reject } of this.waiting.values()) reject(new Error(`A load generator exited (${code})`));
      this.waiting.clear();
    });
  }
  ask<T extends FromSubscribers>(message: ToSubscribers, key: string): Promise<T> {
    return new Promise((resolve, reject) => {
      this.waiting.set(key, { resolve: resolve as (message: FromSubscribers) => void, reject });
      this.child.send(message);
    });
  }
  stop() {
    if (this.child.exitCode === null && this.child.connected)
      this.child.send({ type: "close" } satisfies ToSubscribers);
    return new Promise<void>((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once("exit", () => resolve());
      setTimeout(() => this.child.kill(), 5_000).unref();
    });
  }
}

const percentile = (sorted: number[], q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function runOnce(startSite: StartSite, engine: Engine) {
  const site = await startSite(engine);
  const pid = site.process.pid!;
  const siteLimits = openFileLimits(pid);
  const eventId = await createEvent(site);
  // On PostgreSQL the moment a sale commits is known exactly: its notice reaches every listener
  // then (decision 005). The site's database is read from its environment.
  const databaseUrl = /(?:^|\0)DATABASE_URL=([^\0]*)/.exec(fs.readFileSync(`/proc/${pid}/environ`, "utf8"))?.[1];
  const notices: number[] = [];
  const listener = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : undefined;
  if (listener) {
    await listener.connect();
    listener.on("notification", () => notices.push(wallClock()));
    await listener.query("listen kilele_event_changes");
  }
  const { hostname: host, port } = new URL(site.url);

  // A first subscriber opens and leaves, so the feed's one-off set-up is not counted per subscriber.
  const first = await fetch(site.url + "/api/live/availability", { headers: { "X-Forwarded-For": "198.19.255.1" } });
  const reader = first.body!.getReader();
  await reader.read();
  await reader.cancel();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const before = residentKB(pid);

  const generators = Array.from(
    { length: feed.generators },
    () =>
      new Generator(fork(path.join(here, "feed-subscribers.ts"), { stdio: ["ignore", "inherit", "inherit", "ipc"] })),
  );
  try {
    // Half, then the other half: the second half's cost is what one more subscriber costs, without
    // what the first connections grow once (the heap's young generation, the tables of sockets).
    const share = Math.ceil(feed.subscribers / generators.length);
    const openedAt = wallClock();
    const openHalf = (half: 0 | 1) =>
      Promise.all(
        generators.map((generator, g) => {
          const count = Math.max(0, Math.min(share, feed.subscribers - g * share));
          const firstHalf = Math.ceil(count / 2);
          return generator.ask<Extract<FromSubscribers, { type: "opened" }>>(
            {
              type: "open",
              host,
              port: Number(port),
              count: half === 0 ? firstHalf : count - firstHalf,
              first: g * share + (half === 0 ? 0 : firstHalf),
              eventId,
              atOnce: 100,
            },
            "opened",
          );
        }),
      );
    const openedHalf = await openHalf(0);
    const halfOpen = openedHalf.reduce((sum, o) => sum + o.open, 0);
    // A moment for the site to settle after each opening burst.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const middle = residentKB(pid);
    const opened = await openHalf(1);
    const openMs = Math.round(wallClock() - openedAt - 2_000);
    const open = opened.reduce((sum, o) => sum + o.open, 0);
    const statuses: Record<string, number> = {};
    for (const o of opened)
      for (const [status, n] of Object.entries(o.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
    const failed = opened.reduce((sum, o) => sum + o.failed, 0);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const after = residentKB(pid);

    const latencies: number[] = [];
    const fromAnswer: number[] = [];
    const fromCommit: number[] = [];
    const lastPerSale: number[] = [];
    const paymentMs: number[] = [];
    let missed = 0;
    const cpuBefore = cpuMs(pid);
    const askCpu = () =>
      Promise.all(
        generators.map((generator) =>
          generator.ask<Extract<FromSubscribers, { type: "arrivals" }>>({ type: "arrivals", sold: 0 }, "arrivals:0"),
        ),
      ).then((replies) => replies.reduce((sum, reply) => sum + reply.cpuMs, 0));
    const generatorsCpuBefore = await askCpu();
    let generatorsCpu = generatorsCpuBefore;
    for (let sale = 1; sale <= feed.sales; sale++) {
      const { asked, answered } = await sell(site, eventId, sale);
      paymentMs.push(answered - asked);
      // Until every open subscriber has the new count, or patience runs out.
      let times: number[] = [];
      for (const deadline = wallClock() + feed.patienceMs; ;) {
        const replies = await Promise.all(
          generators.map((generator) =>
            generator.ask<Extract<FromSubscribers, { type: "arrivals" }>>(
              { type: "arrivals", sold: sale },
              `arrivals:${sale}`,
            ),
          ),
        );
        times = replies.flatMap((reply) => reply.times);
        generatorsCpu = replies.reduce((sum, reply) => sum + reply.cpuMs, 0);
        const waiting = replies.reduce((sum, reply) => sum + reply.waiting, 0);
        if (waiting === 0 || wallClock() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      missed += open - times.length;
      const committed = listener ? notices.find((at) => at >= asked) : undefined;
      for (const t of times) {
        latencies.push(t - asked);
        fromAnswer.push(t - answered);
        if (committed !== undefined) fromCommit.push(t - committed);
      }
      lastPerSale.push(times.reduce((latest, t) => Math.max(latest, t), -Infinity) - asked);
    }
    const cpuPerSale = (cpuMs(pid) - cpuBefore) / feed.sales;
    const afterSales = residentKB(pid);
    latencies.sort((a, b) => a - b);
    fromAnswer.sort((a, b) => a - b);
    fromCommit.sort((a, b) => a - b);
    lastPerSale.sort((a, b) => a - b);
    paymentMs.sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      database: site.database,
      subscribers: feed.subscribers,
      open,
      answers: statuses,
      failed,
      openSeconds: round(openMs / 1000),
      siteOpenFiles: siteLimits,
      residentMB: {
        before: round(before / 1024),
        half: round(middle / 1024),
        after: round(after / 1024),
        afterSales: round(afterSales / 1024),
      },
      kbPerSubscriber: round((after - before) / Math.max(open, 1)),
      kbPerSubscriberSecondHalf: round((after - middle) / Math.max(open - halfOpen, 1)),
      sales: feed.sales,
      updatesMissed: missed,
      msFromPaymentAsked: {
        p50: round(percentile(latencies, 0.5)),
        p99: round(percentile(latencies, 0.99)),
        max: round(latencies.at(-1) ?? NaN),
      },
      msFromPaymentAnswered: {
        p50: round(percentile(fromAnswer, 0.5)),
        p99: round(percentile(fromAnswer, 0.99)),
        max: round(fromAnswer.at(-1) ?? NaN),
      },
      msFromCommit:
        fromCommit.length > 0
          ? {
              p50: round(percentile(fromCommit, 0.5)),
              p99: round(percentile(fromCommit, 0.99)),
              max: round(fromCommit.at(-1)!),
            }
          : null,
      lastSubscriberPerSaleMs: { p50: round(percentile(lastPerSale, 0.5)), max: round(lastPerSale.at(-1) ?? NaN) },
      paymentMsP50: round(percentile(paymentMs, 0.5)),
      siteCpuMsPerSale: round(cpuPerSale),
      generatorsCpuMsPerSale: round((generatorsCpu - generatorsCpuBefore) / feed.sales),
      loadAverage: os.loadavg().map(round),
    };
  } finally {
    await listener?.end();
    await Promise.all(generators.map((generator) => generator.stop()));
    await site.stop();
  }
}

/** CPU time (user and system) a process has used so far, in ms (Linux). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const tick = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim() || 100);
  return (Number(fields[11]) + Number(fields[12])) * tick;
}

export type FeedResult = Awaited<ReturnType<typeof runOnce>>;

export async function feedScenario(startSite: StartSite, engines: Engine[]): Promise<FeedResult[]> {
  const limits = raiseOpenFiles();
  // Each load generator holds its share; the site all of them, beside its database and page connections.
  const needed = feed.subscribers + 1_000;
  if (limits.soft < needed) {
    console.log(
      `\nThe open-file limit is ${limits.soft} (hard ${limits.hard}): the site needs about ${needed} for ` +
        `${feed.subscribers} subscribers. Raise it (\`ulimit -n ${needed}\` as root, or prlimit) and run again.`,
    );
  }
  const results: FeedResult[] = [];
  for (const engine of engines) results.push(await runOnce(startSite, engine));
  const fixed = (n: number) => n.toLocaleString("en-GB", { maximumFractionDigits: 1 });
  const rows: [string, (r: FeedResult) => string][] = [
    ["subscribers open / asked", (r) => `${fixed(r.open)} / ${fixed(r.subscribers)}`],
    [
      "answers",
      (r) =>
        Object.entries(r.answers)
          .map(([s, n]) => `${s}: ${fixed(n)}`)
          .join(", ") + (r.failed ? `, ${r.failed} failed` : ""),
    ],
    ["seconds to open them all", (r) => fixed(r.openSeconds)],
    ["site's open-file limit", (r) => fixed(r.siteOpenFiles.soft)],
    ["resident MB before", (r) => fixed(r.residentMB.before)],
    ["resident MB with half of them", (r) => fixed(r.residentMB.half)],
    ["resident MB with them", (r) => fixed(r.residentMB.after)],
    ["resident MB after the sales", (r) => fixed(r.residentMB.afterSales)],
    ["KB per subscriber", (r) => fixed(r.kbPerSubscriber)],
    ["KB per subscriber, the second half", (r) => fixed(r.kbPerSubscriberSecondHalf)],
    ["sales", (r) => fixed(r.sales)],
    ["updates that never came", (r) => fixed(r.updatesMissed)],
    ["update p50 ms (from payment asked)", (r) => fixed(r.msFromPaymentAsked.p50)],
    ["update p99 ms", (r) => fixed(r.msFromPaymentAsked.p99)],
    ["update max ms", (r) => fixed(r.msFromPaymentAsked.max)],
    ["update p99 ms (from payment answered)", (r) => fixed(r.msFromPaymentAnswered.p99)],
    ["update p50 ms (from commit: PostgreSQL's notice)", (r) => (r.msFromCommit ? fixed(r.msFromCommit.p50) : "")],
    ["update p99 ms (from commit)", (r) => (r.msFromCommit ? fixed(r.msFromCommit.p99) : "")],
    ["update max ms (from commit)", (r) => (r.msFromCommit ? fixed(r.msFromCommit.max) : "")],
    ["last subscriber per sale, p50 ms", (r) => fixed(r.lastSubscriberPerSaleMs.p50)],
    ["payment request p50 ms", (r) => fixed(r.paymentMsP50)],
    ["site CPU ms per sale", (r) => fixed(r.siteCpuMsPerSale)],
    ["load generators' CPU ms per sale", (r) => fixed(r.generatorsCpuMsPerSale)],
    ["load average (1, 5, 15 min)", (r) => r.loadAverage.join(", ")],
  ];
  const header = ["", ...results.map((r) => r.database)];
  const cells = [header, ...rows.map(([label, value]) => [label, ...results.map(value)])];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  console.log(`\nLive feed: ${fixed(feed.subscribers)} subscribers, ${feed.sales} sales one after another`);
  cells.forEach((row, n) => {
    console.log(
      "  " + row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "),
    );
    if (n === 0) console.log("  " + widths.map((w) => "-".repeat(w)).join("  "));
  });
  return results;
}
