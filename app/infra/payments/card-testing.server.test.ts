import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { openDatabase, type DatabaseHandle } from "~/infra/db/database.server";
import type { OfflineProvider } from "~/infra/payments/offline.server";
import { paymentFailed } from "~/payments/settle.server";
import { action as bookingsRoute } from "~/routes/api.bookings";
import { loader as challengeRoute } from "~/routes/api.challenge";
import { action as donationsRoute } from "~/routes/api.donations";
import { action as confirmRoute } from "~/routes/api.payments.offline.confirm";
import { bookings, cardDeclines, donations, offlinePayments, rateLimits, spentChallenges } from "~db/schema";
import type { Services } from "../../../server/services";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { createPostgresDatabase, engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { callRoute, testServices, type TestServices } from "../../../tests/support/services";
import {
  challengeSolved,
  declineLimits,
  issueChallenge,
  paymentStartsPerAddress,
  spikeThresholds,
} from "./card-testing.server";

// Card testing (decision 026), through the routes a browser (or a card tester's script) calls.

const declined = { number: "4000 0000 0000 0002", expiry: "12/34", cvc: "123" };
const donor = { amount: "10.00", name: "Amina Mushi", email: "amina@example.org" };

describe.each(engines)("card testing on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let site: TestServices;
  let services: Services;
  let payments: OfflineProvider;
  let deps: Services;
  let eventId: string;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-22T10:00:00Z");
    site = await testServices(database, clock);
    services = await site.request();
    payments = services.payments as OfflineProvider;
    deps = services;
    eventId = await insertEvent(database.db, { totalAvailableTickets: 50 }, clock.now());
  });
  afterEach(() => site.close());

  /** Declines from other visitors past the site-wide threshold: a spike, so starts need a challenge. */
  async function spikeOfDeclinesElsewhere() {
    await database.db.insert(cardDeclines).values(
      Array.from({ length: spikeThresholds.declines + 1 }, () => ({
        id: crypto.randomUUID(),
        attempt: crypto.randomUUID(),
        clientKey: "elsewhere",
        at: clock.now(),
      })),
    );
  }

  type Handler = (args: never) => Promise<Response>;
  async function call(route: Handler, path: string, body?: unknown, address = "203.0.113.7") {
    const request = new Request(`http://localhost${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const response = await callRoute(route, request, services, { clientAddress: address });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const book = (body: Record<string, unknown> = {}, address?: string) =>
    call(
      bookingsRoute,
      "/api/bookings",
      { eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 1, ...body },
      address,
    );
  const donate = (body: Record<string, unknown> = {}, address?: string) =>
    call(donationsRoute, "/api/donations", { ...donor, ...body }, address);
  const stored = async () => ({
    bookings: (await database.db.select().from(bookings)).length,
    donations: (await database.db.select().from(donations)).length,
    payments: (await database.db.select().from(offlinePayments)).length,
  });

  it("limits payment starts per address, bookings and donations together: 429, nothing held or charged", async () => {
    for (let i = 0; i < paymentStartsPerAddress.limit; i++) {
      const answer = i % 2 ? await donate() : await book({ email: `buyer${i}@example.org` });
      expect(answer.status).toBe(201);
    }
    const before = await stored();
    for (const answer of [await book({ email: "late@example.org" }), await donate()]) {
      expect(answer).toMatchObject({
        status: 429,
        body: {
          code: "too-many-requests",
          error:
            "Too many payments have been started from your internet connection. Please wait a few minutes, then try again.",
        },
      });
    }
    expect(await stored()).toEqual(before);
    // Someone else is not held up.
    expect((await donate({}, "198.51.100.1")).status).toBe(201);
  });

  it("refuses an attempt declined too often, and new starts from an address with many declines", async () => {
    const started = await donate();
    const confirm = () =>
      call(confirmRoute, "/api/payments/offline/confirm", { clientSecret: started.body.clientSecret, card: declined });
    for (let i = 1; i < declineLimits.perAttempt; i++) expect((await confirm()).status).toBe(402);
    const last = await confirm();
    expect(last).toMatchObject({ status: 429, body: { error: /declined too many times/ } });
    const [donation] = await database.db.select().from(donations);
    expect(donation!.status).toBe("cancelled");
    expect((await confirm()).status).toBe(429);

    // More declines from the same address, on new attempts, until the address is refused.
    while ((await database.db.select().from(cardDeclines)).length < declineLimits.perAddress) {
      const next = await donate();
      await call(confirmRoute, "/api/payments/offline/confirm", {
        clientSecret: next.body.clientSecret,
        card: declined,
      });
    }
    const before = await stored();
    expect(await donate()).toMatchObject({ status: 429, body: { error: /Too many cards have been declined/ } });
    expect(await stored()).toEqual(before);
    expect((await donate({}, "198.51.100.1")).status).toBe(201);
  });

  it("counts the provider's reported declines (Stripe's payment_failed) against a donation, then cancels it", async () => {
    const started = await donate();
    const [payment] = await database.db.select().from(offlinePayments);
    for (let i = 0; i < declineLimits.perAttempt; i++) await paymentFailed(deps, payment!.id);
    const [donation] = await database.db.select().from(donations);
    expect(donation!.status).toBe("cancelled");
    expect((await payments.retrievePayment(payment!.id)).status).toBe("canceled");
    expect(started.status).toBe(201);
  });

  it("during a spike, a start needs a solved challenge: refused without one, accepted with one, and only once", async () => {
    expect((await book({ email: "calm@example.org" })).status).toBe(201);
    await spikeOfDeclinesElsewhere();
    const before = await stored();
    for (const answer of [await book({ email: "b@example.org" }), await donate({}, "198.51.100.9")]) {
      expect(answer).toMatchObject({ status: 403, body: { code: "challenge-required", error: /moment's check/ } });
    }
    expect(await stored()).toEqual(before);

    const challenge = (await call(challengeRoute, "/api/challenge")).body as unknown as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    const payload = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
    expect((await book({ email: "b@example.org", challenge: payload })).status).toBe(201);
    expect((await donate({ challenge: payload })).status).toBe(403);
    const tampered = { challenge: { ...challenge, parameters: { ...challenge.parameters, cost: 1 } }, solution };
    expect((await donate({ challenge: tampered })).status).toBe(403);

    // A challenge solved too late has expired.
    const fresh = (await call(challengeRoute, "/api/challenge")).body as unknown as Challenge;
    const solved = { challenge: fresh, solution: await solveChallenge({ challenge: fresh, deriveKey }) };
    clock.advance(6 * 60_000);
    await database.db.update(cardDeclines).set({ at: clock.now() });
    expect((await donate({ challenge: solved })).status).toBe(403);

    // When the spike has passed, no challenge is asked for.
    clock.advance(spikeThresholds.windowMs);
    expect((await donate({}, "198.51.100.10")).status).toBe(201);
  });

  it("during a spike, a start that could hold nothing is told so at once, with no challenge to solve", async () => {
    const small = await insertEvent(database.db, { totalAvailableTickets: 2 }, clock.now());
    await spikeOfDeclinesElsewhere();
    // Seats left: the check is asked for, as for any payment start.
    expect(await book({ eventId: small, quantity: 2, email: "first@example.org" })).toMatchObject({
      status: 403,
      body: { code: "challenge-required" },
    });
    expect(await book({ eventId: small, quantity: 3, email: "first@example.org" })).toMatchObject({
      status: 409,
      body: { error: "Only 2 tickets left for this event." },
    });
    const challenge = (await call(challengeRoute, "/api/challenge")).body as unknown as Challenge;
    const payload = { challenge, solution: await solveChallenge({ challenge, deriveKey }) };
    const heard = services.availability.changes;
    expect((await book({ eventId: small, quantity: 2, email: "first@example.org", challenge: payload })).status).toBe(
      201,
    );
    // The next buyer comes once the site has heard of that hold (the notice its commit sends, which
    // ends the last reading's use: decision 042).
    await vi.waitFor(() => expect(services.availability.changes).toBeGreaterThan(heard));
    // Every seat in a checkout: the next buyer is told when to try again, not asked for work first,
    // and nothing is counted against their address.
    const late = await book({ eventId: small, quantity: 1, email: "late@example.org" }, "198.51.100.20");
    expect(late).toMatchObject({
      status: 409,
      body: { code: "conflict", error: "All remaining tickets are reserved. Try again after 10:15." },
    });
    expect(await stored()).toMatchObject({ bookings: 1 });
    expect(await database.db.select().from(rateLimits)).toHaveLength(1);
  });
});

// Several processes of the site on one PostgreSQL database (decision 047): a solved challenge is good
// for one start in all of them together, not one in each.
describe.runIf(engines.includes("postgres"))("a solved challenge with several processes on PostgreSQL", () => {
  it("is spent by the first start in any process, refused in every other, and forgotten once expired", async () => {
    const { url, drop } = await createPostgresDatabase({ migrated: true });
    const processes = [await openDatabase({ url }), await openDatabase({ url })];
    try {
      const now = new Date("2026-11-22T10:00:00Z");
      const challenge = await issueChallenge(processes[0]!.db, now);
      const answer = { challenge, solution: await solveChallenge({ challenge, deriveKey }) };
      const solvedIn = (process: number, at = now) => challengeSolved(processes[process]!.db, answer, at);
      const [first, second] = await Promise.all([solvedIn(0), solvedIn(1)]);
      expect([first, second].sort()).toEqual([false, true]);
      expect(await solvedIn(0)).toBe(false);
      expect(await solvedIn(1)).toBe(false);
      expect(await processes[0]!.db.$count(spentChallenges)).toBe(1);

      // Another challenge, used after the first's expiry, sweeps the first's row away.
      const later = new Date(now.getTime() + 6 * 60_000);
      const next = await issueChallenge(processes[1]!.db, later);
      const nextAnswer = { challenge: next, solution: await solveChallenge({ challenge: next, deriveKey }) };
      expect(await challengeSolved(processes[1]!.db, nextAnswer, later)).toBe(true);
      expect(await processes[0]!.db.select({ nonce: spentChallenges.nonce }).from(spentChallenges)).toEqual([
        { nonce: next.parameters.nonce },
      ]);
    } finally {
      for (const process of processes) await process.close();
      await drop();
    }
  });
});
