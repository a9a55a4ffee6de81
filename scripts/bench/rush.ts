// The ticket rush of `npm run bench` (docs/decisions/037-a-ticket-rush.md): 1,000 buyers for the
// 100 seats of one event, 50 at a time, each from an address of their own, doing what a browser
// does on the booking and payment pages:
//   1. POST /api/bookings (a checkout start: hold the seats, start the card payment);
//   2. when the site answers 403 challenge-required (a spike of payments, decision 026), GET
//      /api/challenge, solve it (ALTCHA, in a pool of worker threads, as the browser's widget does
//      in its worker) and POST /api/bookings again with the answer;
//   3. with a hold, pay for it with the offline provider's test card (POST
//      /api/payments/offline/confirm, which settles the booking), then open /confirmation, as the
//      card form's redirect does.
// Only the site's answers are timed. Solving is the buyers' own work (in a real rush, a thousand
// phones each solving its own), so the rate of paid orders is given per second of the site's busy
// time (the union of the moments at least one request was waiting for the site), beside the plain
// wall-clock rate, which the solving on this machine's own cores stretches. Afterwards the sale is
// checked through the staff API: exactly as many seats sold as the event has, none twice.
import os from "node:os";
import { Worker } from "node:worker_threads";
import { createBenchEvent, signedInCookie, testCard } from "./staff-api";

export const rush = { buyers: 1_000, seats: 100, atOnce: 50 };

export interface RushSite {
  url: string;
  database: string;
  /** CPU time the site's process has used so far, in ms. */
  cpuMs(): number;
}

type Table = (title: string, header: string[], rows: (string | number)[][]) => void;

interface Challenge {
  parameters: Record<string, unknown>;
  signature?: string;
}

/**
 * Solves ALTCHA challenges in worker threads, one challenge per thread at a time, first come first
 * served. Each thread lowers its own priority (on Linux the nice value is a thread's), so the
 * buyers' solving yields the cores to the site being measured.
 */
class SolverPool {
  private readonly workers: Worker[];
  private readonly idle: Worker[] = [];
  private readonly queue: { challenge: Challenge; resolve: (solution: unknown) => void; reject: (e: Error) => void }[] =
    [];
  private readonly pending = new Map<Worker, { resolve: (solution: unknown) => void; reject: (e: Error) => void }>();
  /** Time the threads spent solving, in ms, summed. */
  solvingMs = 0;

  constructor(size: number) {
    const code = `
      const { parentPort } = require("node:worker_threads");
      const crypto = require("node:crypto");
      const os = require("node:os");
      try { os.setPriority(0, 10); } catch {}
      const { solveChallenge } = require("altcha-lib");
      const digests = { "PBKDF2/SHA-256": "sha256", "PBKDF2/SHA-384": "sha384", "PBKDF2/SHA-512": "sha512" };
      // In this thread, not on libuv's pool: one challenge per thread, at this thread's priority.
      const deriveKey = async (parameters, salt, password) => ({
        parameters: {},
        derivedKey: crypto.pbkdf2Sync(password, salt, parameters.cost, parameters.keyLength ?? 32, digests[parameters.algorithm]),
      });
      parentPort.on("message", async (challenge) => {
        try {
          parentPort.postMessage({ solution: await solveChallenge({ challenge, deriveKey, timeout: 0 }) });
        } catch (error) {
          parentPort.postMessage({ error: String(error) });
        }
      });
    `;
    this.workers = Array.from({ length: size }, () => {
      const worker = new Worker(code, { eval: true });
      worker.on("message", (message: { solution?: { time: number }; error?: string }) => {
        const job = this.pending.get(worker)!;
        this.pending.delete(worker);
        if (message.solution) {
          this.solvingMs += message.solution.time;
          job.resolve(message.solution);
        } else job.reject(new Error(message.error ?? "The challenge was not solved."));
        this.idle.push(worker);
        this.next();
      });
      this.idle.push(worker);
      return worker;
    });
  }

  solve(challenge: Challenge): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ challenge, resolve, reject });
      this.next();
    });
  }

  private next() {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const job = this.queue.shift()!;
      this.pending.set(worker, job);
      worker.postMessage(job.challenge);
    }
  }

  async close() {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}

/** A number as letters (0 is "a", 26 "ba"): names take no digits. */
function letters(n: number): string {
  return (n >= 26 ? letters(Math.floor(n / 26)) : "") + String.fromCharCode(97 + (n % 26));
}

const percentile = (sorted: number[], q: number) =>
  sorted.length === 0 ? NaN : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);

/** The time covered by at least one of the intervals, within [from, to]. */
function unionMs(intervals: [number, number][], from: number, to: number): number {
  const clipped = intervals
    .map(([a, b]) => [Math.max(a, from), Math.min(b, to)] as [number, number])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of clipped) {
    if (a > end) {
      total += b - a;
      end = b;
    } else if (b > end) {
      total += b - end;
      end = b;
    }
  }
  return total;
}

export async function rushScenario(
  site: RushSite,
  { staff, table }: { staff: { email: string; password: string }; table: Table },
) {
  const cookie = await signedInCookie(site.url, staff);
  const event = await createBenchEvent(site.url, cookie, {
    name: "Ticket Rush",
    description: "A hundred seats and a thousand people who want one.",
    seats: rush.seats,
  });
  const eventId = event.id;
  const card = testCard();
  const pool = new SolverPool(os.cpus().length);
  const answers = new Map<string, number>();
  const count = (key: string) => answers.set(key, (answers.get(key) ?? 0) + 1);
  const timings = {
    start: [] as number[],
    challenge: [] as number[],
    pay: [] as number[],
    confirmation: [] as number[],
  };
  const intervals: [number, number][] = [];
  const trace: [string, number, number, number][] = [];
  const paidAt: number[] = [];
  const paidRefs: string[] = [];
  let challengesSolved = 0;

  /** One request to the site, timed, its time counted as the site's. */
  async function ask(kind: keyof typeof timings, address: string, path: string, body?: unknown) {
    const t = performance.now();
    const response = await fetch(site.url + path, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        ...(body !== undefined && { "Content-Type": "application/json", Origin: site.url }),
        "X-Forwarded-For": address,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const end = performance.now();
    timings[kind].push(end - t);
    if (process.env.RUSH_TRACE) trace.push([kind, Math.round(t - started), Math.round(end - t), response.status]);
    intervals.push([t, end]);
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // A page, not JSON.
    }
    return { status: response.status, json, end };
  }

  const cpuBefore = site.cpuMs();
  let next = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: rush.atOnce }, async () => {
        while (next < rush.buyers) {
          const buyer = next++;
          // Each buyer from an address of their own (198.18.0.0/15, kept for benchmarks).
          const address = `198.18.${buyer >> 8}.${buyer & 255}`;
          const details = { name: `Buyer ${letters(buyer)}`, email: `buyer${buyer}@example.org`, quantity: 1 };
          const booking = { eventId, ...details };
          let answer = await ask("start", address, "/api/bookings", booking);
          if (answer.status === 403 && answer.json.code === "challenge-required") {
            count("403 challenge-required");
            const challenge = await ask("challenge", address, "/api/challenge");
            if (challenge.status !== 200) throw new Error(`GET /api/challenge answered ${challenge.status}`);
            const solution = await pool.solve(challenge.json as unknown as Challenge);
            challengesSolved++;
            // As the widget sends it: the challenge and its solution, as base64 JSON.
            const payload = Buffer.from(JSON.stringify({ challenge: challenge.json, solution })).toString("base64");
            answer = await ask("start", address, "/api/bookings", { ...booking, challenge: payload });
          }
          if (answer.status !== 201) {
            count(`${answer.status} ${String(answer.json.code ?? "")}`.trim());
            continue;
          }
          count("201 held");
          const { bookingRef, clientSecret } = answer.json as { bookingRef: string; clientSecret: string };
          const paid = await ask("pay", address, "/api/payments/offline/confirm", { clientSecret, card });
          if (paid.status !== 200 || paid.json.status !== "succeeded") {
            count(`payment ${paid.status} ${String(paid.json.status ?? paid.json.code ?? "")}`);
            continue;
          }
          paidAt.push(paid.end);
          paidRefs.push(bookingRef);
          // The card form's redirect: the confirmation page, which sends the receipt's first attempt.
          const params = new URLSearchParams({
            eventId,
            eventName: event.name,
            eventLoaction: event.location,
            eventDate: event.eventDate,
            bookingRef,
            ticketCost: "10.00",
            ticketQuantity: "1",
            userName: details.name,
            userEmail: details.email,
          });
          const page = await ask("confirmation", address, `/confirmation?${params.toString()}`);
          if (page.status !== 200) count(`confirmation page ${page.status}`);
        }
      }),
    );
  } finally {
    await pool.close();
  }
  const ended = performance.now();
  if (process.env.RUSH_TRACE)
    (await import("node:fs")).writeFileSync(
      process.env.RUSH_TRACE + "-" + site.database.split(" ")[0] + ".json",
      JSON.stringify(trace),
    );
  const siteCpuMs = site.cpuMs() - cpuBefore;

  // The sale, as staff see it: every valid ticket, by booking.
  const listed = await fetch(`${site.url}/api/admin/events/${eventId}/tickets`, { headers: { Cookie: cookie } });
  const { tickets } = (await listed.json()) as {
    tickets: { bookingRef: string; quantity: number; isValid: boolean }[];
  };
  const valid = tickets.filter((ticket) => ticket.isValid);
  const seatsSold = valid.reduce((sum, ticket) => sum + ticket.quantity, 0);
  const ticketRefs = new Set(valid.map((ticket) => ticket.bookingRef));
  const saleChecked =
    seatsSold === rush.seats &&
    ticketRefs.size === valid.length &&
    paidRefs.length === valid.length &&
    paidRefs.every((ref) => ticketRefs.has(ref));

  paidAt.sort((a, b) => a - b);
  const lastPaid = paidAt.at(-1) ?? ended;
  const saleSiteMs = unionMs(intervals, started, lastPaid);
  const sorted = Object.fromEntries(
    Object.entries(timings).map(([kind, list]) => [kind, [...list].sort((a, b) => a - b)]),
  ) as typeof timings;
  const result = {
    database: site.database,
    buyers: rush.buyers,
    seats: rush.seats,
    atOnce: rush.atOnce,
    answers: Object.fromEntries(answers),
    paidOrders: paidAt.length,
    seatsSold,
    saleChecked,
    challengesSolved,
    solvingSeconds: Math.round(pool.solvingMs / 100) / 10,
    checkoutStarts: timings.start.length,
    startP50: percentile(sorted.start, 0.5),
    startP99: percentile(sorted.start, 0.99),
    challengeP99: percentile(sorted.challenge, 0.99),
    payP50: percentile(sorted.pay, 0.5),
    payP99: percentile(sorted.pay, 0.99),
    confirmationP50: percentile(sorted.confirmation, 0.5),
    confirmationP99: percentile(sorted.confirmation, 0.99),
    /** Wall clock from the first start to the last paid order, buyers' solving included. */
    saleWallSeconds: Math.round(lastPaid - started) / 1000,
    /** The site's busy time in that span: the union of its requests' times. */
    saleSiteSeconds: Math.round(saleSiteMs) / 1000,
    paidPerSecondWall: Math.round((paidAt.length / (lastPaid - started)) * 1000),
    paidPerSecondSite: Math.round((paidAt.length / saleSiteMs) * 1000),
    rushWallSeconds: Math.round(ended - started) / 1000,
    siteCpuSeconds: Math.round(siteCpuMs) / 1000,
    siteCpuMsPerRequest: Math.round((siteCpuMs / intervals.length) * 100) / 100,
    requests: intervals.length,
    loadAverage: os.loadavg(),
  };
  table(
    `Ticket rush on ${site.database}: ${rush.buyers.toLocaleString("en-GB")} buyers for ${rush.seats} seats, ${rush.atOnce} at a time`,
    ["", "value"],
    [
      ...[...answers].map(([key, n]) => [`answers: ${key}`, n]),
      ["challenges solved by the buyers", result.challengesSolved],
      ["paid orders", result.paidOrders],
      ["seats sold (staff's ticket list)", result.seatsSold],
      ["sale checked: exactly the seats, each paid once", result.saleChecked ? "yes" : "NO"],
      [`checkout starts (POST /api/bookings)`, result.checkoutStarts],
      ["start p50 ms", result.startP50],
      ["start p99 ms", result.startP99],
      ["challenge p99 ms", result.challengeP99],
      ["payment p50 ms", result.payP50],
      ["payment p99 ms", result.payP99],
      ["confirmation page p50 ms", result.confirmationP50],
      ["confirmation page p99 ms", result.confirmationP99],
      ["sale: first start to last paid, s (wall)", result.saleWallSeconds],
      ["sale: the site's busy time, s", result.saleSiteSeconds],
      ["paid orders/s (site's busy time)", result.paidPerSecondSite],
      ["paid orders/s (wall, solving included)", result.paidPerSecondWall],
      ["buyers' solving, thread-seconds", result.solvingSeconds],
      ["site CPU ms per request", result.siteCpuMsPerRequest],
      ["load average (1, 5, 15 min)", result.loadAverage.map((n) => n.toFixed(1)).join(", ")],
    ],
  );
  if (!saleChecked) console.log(`  The sale does not add up: ${seatsSold} seats sold, ${paidRefs.length} paid orders.`);
  return result;
}
