import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import Stripe from "stripe";
import { expect, test } from "@playwright/test";
import { startSiteProcess, type RunningSite } from "../support/site-process";
import { createEvent, staffApi } from "../support/staff-api";
import { TestSmtpServer } from "../support/smtp";
import { StripeStandIn, succeeded, webhookSecret } from "../support/stripe-standin";

// Crash safety (decision 028): the server is killed with SIGKILL while checkouts, webhooks and
// receipts are in flight, and restarted on the same data folder. No browser: the visitors are
// plain HTTP requests, Stripe is the stand-in (which outlives the server, as Stripe does), and the
// receipts go to a real SMTP server on loopback. The embedded database only: on PostgreSQL an
// e-mail a killed process had claimed waits out its two-minute lease, which is right for a database
// several processes share, and too slow for this test.

const buyers = 8;
const lateCheckouts = 4;

test("killed with SIGKILL mid-checkout, mid-webhook and mid-delivery, then restarted: no paid booking lost, no ticket twice, every receipt delivered", async () => {
  test.setTimeout(120_000);
  const stripe = await new StripeStandIn().start();
  const smtp = await new TestSmtpServer().start();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-crash-"));
  const env = {
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    STRIPE_SECRET_KEY: "sk_test_crash",
    STRIPE_PUBLISHABLE_KEY: "pk_test_crash",
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_URL: stripe.url,
  };
  let site: RunningSite = await startSiteProcess(env);
  try {
    const event = await createEvent(await staffApi(site), { name: "Harvest Supper", totalAvailableTickets: 100 });
    const checkout = (url: string, i: number) =>
      fetch(`${url}/api/bookings`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ eventId: event.id, name: "Neema Sanga", email: `buyer${i}@example.org`, quantity: 1 }),
      });
    const webhook = (url: string, eventId: string, paymentId: string) => {
      const payload = JSON.stringify(succeeded(eventId, paymentId));
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
      return fetch(`${url}/api/payments/webhook`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
        body: payload,
      });
    };
    const confirmation = (url: string, bookingRef: string) =>
      fetch(
        `${url}/confirmation?${new URLSearchParams({
          eventId: event.id,
          eventName: "Harvest Supper",
          eventLoaction: "Hall",
          eventDate: "2026-12-01",
          userName: "Neema Sanga",
          userEmail: "buyer@example.org",
          bookingRef,
        })}`,
      ).then((r) => r.text());

    const paymentOf = (ref: string) =>
      [...stripe.intents.values()].find((intent) => (intent.metadata as Record<string, string>).booking_ref === ref)!
        .id as string;

    // Ten buyers start a checkout and pay: Stripe has taken their money, the site has not yet heard.
    const refs: string[] = [];
    for (let i = 0; i < buyers; i++) {
      const started = await checkout(site.url, i);
      expect(started.status).toBe(201);
      refs.push(((await started.json()) as { bookingRef: string }).bookingRef);
      stripe.setStatus(paymentOf(refs.at(-1)!), "succeeded");
    }
    // All at once: every payment's webhook, half of the buyers back on the confirmation page, and
    // more checkouts. The mail server takes receipts but does not answer: the server is killed
    // as soon as it has sent its first one, which it will not know was delivered.
    const answerMail = smtp.holdAnswers();
    const inFlight = [
      ...refs.map((ref, i) => webhook(site.url, `evt_first_${i}`, paymentOf(ref))),
      ...refs.slice(0, buyers / 2).map((ref) => confirmation(site.url, ref)),
      ...Array.from({ length: lateCheckouts }, (_, i) =>
        checkout(site.url, buyers + i).then(async (r) =>
          r.status === 201 ? ((await r.json()) as { bookingRef: string }).bookingRef : undefined,
        ),
      ),
    ];
    const settled = Promise.allSettled(inFlight);
    await expect.poll(() => smtp.received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    site.process.kill("SIGKILL");
    await new Promise((resolve) => site.process.once("exit", resolve));
    answerMail();
    const answered = await settled;
    const lost = answered.filter((a) => a.status === "rejected").length;
    const receivedBeforeKill = smtp.received.length;

    site = await startSiteProcess(env);
    // Stripe delivers every webhook again until it is answered 200 (here: every one, again).
    for (const [i, ref] of refs.entries()) {
      expect((await webhook(site.url, `evt_first_${i}`, paymentOf(ref))).status).toBe(200);
    }
    // The late checkouts that were answered are paid now, and their webhooks arrive.
    const lateRefs: string[] = [];
    for (const a of answered.slice(-lateCheckouts)) {
      // A checkout cut off before its answer reached the buyer is never paid.
      if (a.status !== "fulfilled" || typeof a.value !== "string") continue;
      const bookingRef = a.value;
      lateRefs.push(bookingRef);
      stripe.setStatus(paymentOf(bookingRef), "succeeded");
      expect((await webhook(site.url, `evt_late_${bookingRef}`, paymentOf(bookingRef))).status).toBe(200);
    }
    const paid = [...refs, ...lateRefs];

    // Every payment that succeeded has its ticket, once.
    const staff = await staffApi(site);
    const tickets = (
      (await (await staff.get(`/api/admin/events/${event.id}/tickets`)).json()) as {
        tickets: { bookingRef: string; quantity: number }[];
      }
    ).tickets;
    expect(tickets.map((t) => t.bookingRef).sort()).toEqual([...paid].sort());
    for (const ref of paid) {
      const booking = (await (await staff.get(`/api/admin/bookings/${ref}`)).json()) as { status: string };
      expect(booking.status).toBe("paid");
    }
    expect(stripe.refunds).toEqual([]);

    // Every buyer has their receipt: at least once, and any second copy (sent before the kill, its
    // sending not yet recorded) is the same e-mail, with the same Message-ID.
    for (const [i, ref] of paid.entries()) {
      const address = i < buyers ? `buyer${i}@example.org` : undefined;
      const receipts = () => smtp.received.filter((m) => m.subject === `Your booking for Harvest Supper (${ref})`);
      await expect.poll(() => receipts().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
      expect(new Set(receipts().map((m) => m.messageId)).size).toBe(1);
      if (address) expect(receipts()[0]!.to).toMatchObject({ value: [{ address }] });
    }
    const copies = paid.map(
      (ref) => smtp.received.filter((m) => m.subject === `Your booking for Harvest Supper (${ref})`).length,
    );
    console.log(
      `Crash safety: ${lost} of ${inFlight.length} requests cut off by the kill, ${receivedBeforeKill} receipts taken before it; ` +
        `${paid.length} bookings paid, ${tickets.length} tickets; ` +
        `receipts per booking ${copies.join(",")}`,
    );
  } finally {
    await site.stop();
    await smtp.stop();
    await stripe.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
