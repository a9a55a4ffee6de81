// The cost of one paid order, for `npm run bench -- order`: buyers one at a time, each from an
// address of their own, doing what the booking and payment pages do (start the checkout, pay with
// the offline provider's test card, open the confirmation page, which sends the receipt's first
// attempt). With nobody else asking, each step's time is the site's own work, and the site's CPU
// time per order says how many paid orders a second one core could settle at best: the ceiling
// the ticket rush (scripts/bench/rush.ts) runs into. Fewer than the 60 starts of decision 026's
// spike check, so no challenge is asked for.

export interface OrderSite {
  url: string;
  database: string;
  /** CPU time the site's process has used so far, in ms. */
  cpuMs(): number;
}

import fs from "node:fs";
import { createBenchEvent, testCard } from "./staff-api";

type Table = (title: string, header: string[], rows: (string | number)[][]) => void;

const orders = { warmUp: 5, measured: 50 };
const steps = ["start", "payment", "confirmation"] as const;
type Step = (typeof steps)[number];

export async function orderScenario(site: OrderSite, { cookie, table }: { cookie: string; table: Table }) {
  const event = await createBenchEvent(site.url, cookie, {
    name: "One at a Time",
    description: "Buyers who come one after another.",
    seats: 500,
  });
  const card = testCard();
  const wall: Record<Step, number[]> = { start: [], payment: [], confirmation: [] };
  const cpu: Record<Step, number> = { start: 0, payment: 0, confirmation: 0 };
  // Each measured step's time on the machine's monotonic clock, the one a CPU profile of the site
  // is stamped with: BENCH_ORDER_STEPS names a file to write them to, for scripts/bench/profile-steps.ts.
  const windows: { step: Step; fromUs: number; toUs: number }[] = [];
  const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

  /** One step, timed; its CPU counted until the site is idle again (the receipt's sending included). */
  async function step(kind: Step, measured: boolean, ask: () => Promise<Response>) {
    const cpuBefore = site.cpuMs();
    const fromUs = monotonicUs();
    const t = performance.now();
    const response = await ask();
    const text = await response.text();
    const ms = performance.now() - t;
    // Work the answer set going (the live feed's recount, the outbox) finishes in this pause.
    await new Promise((resolve) => setTimeout(resolve, 40));
    if (measured) {
      windows.push({ step: kind, fromUs, toUs: monotonicUs() });
      wall[kind].push(ms);
      cpu[kind] += site.cpuMs() - cpuBefore;
    }
    if (!response.ok) throw new Error(`${kind} answered ${response.status}: ${text.slice(0, 200)}`);
    return text;
  }

  for (let i = 0; i < orders.warmUp + orders.measured; i += 1) {
    const measured = i >= orders.warmUp;
    const address = `198.19.0.${i}`;
    const headers = { "Content-Type": "application/json", Origin: site.url, "X-Forwarded-For": address };
    const buyer = { name: "Buyer Abc", email: `order${i}@example.org` };
    const started = JSON.parse(
      await step("start", measured, () =>
        fetch(site.url + "/api/bookings", {
          method: "POST",
          headers,
          body: JSON.stringify({ eventId: event.id, ...buyer, quantity: 1 }),
        }),
      ),
    ) as { bookingRef: string; clientSecret: string };
    await step("payment", measured, () =>
      fetch(site.url + "/api/payments/offline/confirm", {
        method: "POST",
        headers,
        body: JSON.stringify({ clientSecret: started.clientSecret, card }),
      }),
    );
    const params = new URLSearchParams({
      eventId: event.id,
      eventName: event.name,
      eventLoaction: event.location,
      eventDate: event.eventDate,
      bookingRef: started.bookingRef,
      ticketCost: "10.00",
      ticketQuantity: "1",
      userName: buyer.name,
      userEmail: buyer.email,
    });
    await step("confirmation", measured, () =>
      fetch(`${site.url}/confirmation?${params.toString()}`, { headers: { "X-Forwarded-For": address } }),
    );
  }

  if (process.env.BENCH_ORDER_STEPS) fs.writeFileSync(process.env.BENCH_ORDER_STEPS, JSON.stringify(windows));
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const perOrder = steps.reduce((sum, kind) => sum + cpu[kind], 0) / orders.measured;
  const bySteps = Object.fromEntries(
    steps.map((kind) => [
      kind,
      {
        wallP50Ms: Math.round(median(wall[kind]) * 10) / 10,
        cpuMs: Math.round((cpu[kind] / orders.measured) * 10) / 10,
      },
    ]),
  ) as Record<Step, { wallP50Ms: number; cpuMs: number }>;
  const result = {
    database: site.database,
    orders: orders.measured,
    steps: bySteps,
    cpuMsPerOrder: Math.round(perOrder * 10) / 10,
    paidOrdersPerCoreSecond: Math.round(1000 / perOrder),
  };
  table(
    `One paid order at a time on ${site.database}: ${orders.measured} orders after ${orders.warmUp} to warm up`,
    ["step", "time p50 ms", "site CPU ms (mean)"],
    [
      ...steps.map((kind) => [kind, bySteps[kind].wallP50Ms, bySteps[kind].cpuMs]),
      ["a paid order", "", result.cpuMsPerOrder],
      ["paid orders a second one core could settle", "", result.paidOrdersPerCoreSecond],
    ],
  );
  return result;
}
