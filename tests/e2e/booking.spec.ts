import { bookingForm, fillCard } from "../support/bookings";
import {
  confirmationOutcome,
  expect,
  expectNoSeriousA11yViolations,
  test as sharedSiteTest,
  useSiteWithMailServer,
  testWithOwnSite,
} from "../support/fixtures";
import { startSiteProcess } from "../support/site-process";
import { readQr } from "../support/qr";
import { TestSmtpServer } from "../support/smtp";
import { createEvent, staffApi } from "../support/staff-api";

const test = testWithOwnSite;

/** The buyer's name and e-mail, as most tests use them. */
async function fillBuyer(f: ReturnType<typeof bookingForm>) {
  await f.name.fill("Amina Mushi");
  await f.email.fill("amina@example.org");
}

// Tests that start a site of their own (with a mail server or Stripe's stand-in) need no other.
sharedSiteTest.describe("with a mail server on loopback", () => {
  sharedSiteTest.slow();
  sharedSiteTest.use({ allowedConsoleErrors: [/status of 402 \(Payment Required\)/] });
  const running = useSiteWithMailServer("Kilele Village Trust <tickets@example.org>");

  sharedSiteTest(
    "a full booking: from the event card to the confirmation page and the receipt by e-mail",
    async ({ page }) => {
      const api = await staffApi(running.site);
      const event = await createEvent(api, {
        name: "Quiz Night",
        ticketCost: 12.5,
        totalAvailableTickets: 40,
        eventDate: "2030-07-04T18:30:00Z",
        ticketSaleExpiry: "2030-07-03T12:00:00Z",
        location: "St Mary's Hall",
      });
      await page.goto(`${running.site.url}/fundraising`);
      await page.getByRole("link", { name: "Book tickets for Quiz Night" }).click();
      await expect(page).toHaveURL(new RegExp(`/book-event/${event.id}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Book Quiz Night");
      await expect(page.getByText(/no real money is charged/)).toBeVisible();
      const f = bookingForm(page);
      await expect(f.pay).toHaveText("Pay now £12.99");
      await fillBuyer(f);
      await f.quantity.fill("3");
      const overview = page.getByRole("region", { name: "Booking overview" });
      await expect(overview).toContainText("£12.50");
      await expect(overview).toContainText("£0.49");
      await expect(overview).toContainText("£37.99");
      await expect(f.pay).toHaveText("Pay now £37.99");
      await expectNoSeriousA11yViolations(page);
      await fillCard(page, "4242 4242 4242 4242");
      await f.pay.click();

      await expect(page).toHaveURL(/\/confirmation\?/);
      const url = new URL(page.url());
      for (const name of [
        "eventId",
        "eventName",
        "eventLoaction",
        "eventDate",
        "bookingRef",
        "ticketCost",
        "ticketQuantity",
        "userName",
        "userEmail",
      ]) {
        expect(url.searchParams.get(name), name).toBeTruthy();
      }
      const bookingRef = url.searchParams.get("bookingRef")!;
      await expect(confirmationOutcome(page).getByText("Payment succeeded!")).toBeVisible();
      const details = page.getByRole("region", { name: "Your booking" });
      await expect(details).toContainText(bookingRef);
      await expect(details).toContainText("04/07/2030 at 19:30");
      await expect(details).toContainText("£37.99");
      await expectNoSeriousA11yViolations(page);

      await expect.poll(() => running.smtp.sentTo("amina@example.org").length).toBe(1);
      const mail = running.smtp.sentTo("amina@example.org")[0]!;
      expect(mail.from?.text).toContain("tickets@example.org");
      expect(mail.text).toContain(`Your booking reference is ${bookingRef}`);
      expect(mail.text).toContain("Thank you for helping to raise money for the village of Kilele.");
      expect(mail.text).toContain("Date: 04/07/2030");
      expect(mail.text).toContain("Time: 19:30");
      expect(mail.text).toContain("Location: St Mary's Hall");
      expect(mail.text).toContain("Tickets: 3");
      expect(mail.text).toContain("Total paid: £37.99");
      expect(mail.text).toContain("registered charity number 1187432");
      // The door code is printed, and the QR code opens the booking's check-in page for staff.
      const code = bookingRef
        .replace(/-/g, "")
        .slice(0, 8)
        .toUpperCase()
        .replace(/^(.{4})/, "$1-");
      expect(mail.text).toContain(`Booking code for the door: ${code}`);
      expect(mail.html).toContain(`QR code for the door: booking ${code}`);
      const qr = mail.attachments.find((a) => a.cid === "booking-qr")!;
      expect(qr.contentType).toBe("image/png");
      expect(await readQr(qr.content)).toMatch(new RegExp(`^https?://[^/]+/admin/check-in/ticket/${bookingRef}$`));
      // The charity's logo, the QR code and the calendar file.
      expect(mail.attachments.map((a) => a.contentType).sort()).toEqual(["image/png", "image/png", "text/calendar"]);
      const ics = mail.attachments.find((a) => a.contentType === "text/calendar")!.content.toString();
      expect(ics).toContain("DTSTART:20300704T183000Z");

      // A reload creates nothing new.
      await page.reload();
      await expect(confirmationOutcome(page).getByText("Payment succeeded!")).toBeVisible();
      const tickets = await (await api.get(`/api/admin/events/${event.id}/tickets`)).json();
      expect(tickets.tickets).toEqual([
        expect.objectContaining({
          ticketHolderName: "Amina Mushi",
          email: "amina@example.org",
          eventId: event.id,
          bookingRef,
          isValid: true,
          quantity: 3,
        }),
      ]);
      const booking = await (await api.get(`/api/admin/bookings/${bookingRef}`)).json();
      expect(booking.status).toBe("paid");
      expect(booking.history.map((h: { status: string }) => h.status)).toEqual(["held", "paid"]);
      expect(running.smtp.sentTo("amina@example.org")).toHaveLength(1);
      // The charity's own address is told of the booking, once.
      await expect
        .poll(() => running.smtp.sentTo("kilele@example.org").map((m) => m.subject))
        .toEqual(["New booking: 3 tickets for Quiz Night"]);
    },
  );

  sharedSiteTest("a declined card says so under the form, keeps the form, and sells nothing", async ({ page }) => {
    // The provider answers a declined card with 402, which Chromium logs.
    const api = await staffApi(running.site);
    const event = await createEvent(api, { name: "Quiz Night" });
    await page.goto(`${running.site.url}/book-event/${event.id}`);
    const f = bookingForm(page);
    await fillBuyer(f);
    await fillCard(page, "4000 0000 0000 0002");
    await f.pay.click();
    await expect(page.getByText("Your card was declined.")).toBeVisible();
    await fillCard(page, "4000 0000 0000 9995");
    await f.pay.click();
    await expect(page.getByText("Your card has insufficient funds.")).toBeVisible();
    await expect(f.name).toHaveValue("Amina Mushi");
    await expect(f.pay).toBeEnabled();
    const tickets = await (await api.get(`/api/admin/events/${event.id}/tickets`)).json();
    expect(tickets.tickets).toEqual([]);
    expect(running.smtp.received).toEqual([]);
  });
});

test("every validation message, the summary, and each clearing as its field is edited", async ({ page, ownSite }) => {
  const event = await createEvent(await staffApi(ownSite), { name: "Quiz Night" });
  await page.goto(`/book-event/${event.id}`);
  const f = bookingForm(page);
  await f.quantity.fill("30");
  await f.pay.click();
  await expect(
    page.getByText("Invalid ticket information: Please provide a valid name, email address and ticket quantity."),
  ).toBeVisible();
  await expect(page.getByText("Invalid name: name must only contain letters and not be left blank.")).toBeVisible();
  await expect(page.getByText("Invalid email: please enter a valid email address.")).toBeVisible();
  await expect(page.getByText("Invalid ticket quantity: please enter a valid number between 1-29")).toBeVisible();
  // An invalid quantity counts as one ticket in the overview.
  await expect(f.pay).toHaveText("Pay now £12.99");
  await expect(page.getByRole("heading", { name: "Ticket information" })).toBeInViewport();
  await expectNoSeriousA11yViolations(page);

  await f.name.fill("Seán O'Brien-Nkya");
  await expect(page.getByText(/^Invalid name/)).toHaveCount(0);
  await expect(page.getByText(/^Invalid email/)).toBeVisible();
  await f.email.fill("sean@example.org");
  await f.quantity.fill("2x");
  await expect(page.getByText(/^Invalid ticket quantity/)).toHaveCount(0);
  await f.pay.click();
  await expect(page.getByText(/^Invalid ticket quantity/)).toBeVisible();
  await expect(page.getByText(/^Invalid name/)).toHaveCount(0);
  await f.name.fill("R2-D2");
  await f.quantity.fill("29");
  await f.pay.click();
  await expect(page.getByText(/^Invalid name/)).toBeVisible();
  await expect(page.getByText(/^Invalid ticket quantity/)).toHaveCount(0);
});

test("never more tickets than are left, and sold out after the last seat", async ({ page, ownSite }) => {
  const api = await staffApi(ownSite);
  const event = await createEvent(api, { name: "Barn Dance", totalAvailableTickets: 2 });
  await page.goto(`/book-event/${event.id}`);
  const f = bookingForm(page);
  await fillBuyer(f);
  await f.quantity.fill("3");
  await fillCard(page, "4242424242424242");
  await f.pay.click();
  await expect(page.getByText("Only 2 tickets left for this event.")).toBeVisible();
  await f.quantity.fill("2");
  await f.pay.click();
  await expect(confirmationOutcome(page).getByText("Payment succeeded!")).toBeVisible();
  await expect(page.locator('div[hidden][id^="S:"]')).toHaveCount(0);

  await page.goto("/fundraising");
  const card = page.locator("article", { hasText: "Barn Dance" });
  await expect(card.getByText("Sold out")).toBeVisible();
  await expect(card.getByRole("link", { name: /Book tickets/ })).toHaveCount(0);
  await page.goto(`/book-event/${event.id}`);
  await expect(page.getByText("Sorry, this event is sold out.")).toBeVisible();
  await expect(page.getByRole("button", { name: /Pay now/ })).toHaveCount(0);
});

test("a made-up or incomplete confirmation link creates nothing", async ({ page, ownSite }) => {
  const api = await staffApi(ownSite);
  const event = await createEvent(api, { name: "Quiz Night" });
  const params = new URLSearchParams({
    eventId: event.id,
    eventName: "Quiz Night",
    eventLoaction: "Hall",
    eventDate: "2030-01-01",
    bookingRef: crypto.randomUUID(),
    ticketCost: "12.50",
    ticketQuantity: "4",
    userName: "Mallory",
    userEmail: "mallory@example.org",
  });
  await page.goto(`/confirmation?${params}`);
  await expect(confirmationOutcome(page).getByText("We could not find a booking with this reference.")).toBeVisible();
  await expect(confirmationOutcome(page).getByText("Payment succeeded!")).toHaveCount(0);
  params.delete("userEmail");
  await page.goto(`/confirmation?${params}`);
  await expect(confirmationOutcome(page).getByText("This link is missing the booking details")).toBeVisible();
  expect((await (await api.get(`/api/admin/events/${event.id}/tickets`)).json()).tickets).toEqual([]);
});

test("a sold-out, closed or unknown event cannot be booked", async ({ page, ownSite }) => {
  const api = await staffApi(ownSite);
  const full = await createEvent(api, { name: "Full", totalAvailableTickets: 0 });
  const elsewhere = await createEvent(api, {
    name: "Elsewhere",
    ticketCost: null,
    link: "https://tickets.example.org/x",
  });
  await page.goto(`/book-event/${full.id}`);
  await expect(page.getByText("Sorry, this event is sold out.")).toBeVisible();
  await page.goto(`/book-event/${elsewhere.id}`);
  await expect(page.getByText("Tickets for this event are not sold on this site.")).toBeVisible();
  expect((await page.request.get(`/book-event/${crypto.randomUUID()}`)).status()).toBe(404);
  const refused = await page.request.post("/api/bookings", {
    data: { eventId: full.id, name: "Amina", email: "amina@example.org", quantity: 1 },
  });
  expect(refused.status()).toBe(409);
});

sharedSiteTest(
  "when the receipt's first attempt fails, the visitor is told to note the reference, and the booking stands",
  async ({ page }) => {
    sharedSiteTest.slow();
    const down = await new TestSmtpServer().start();
    const port = down.port;
    await down.stop();
    const site = await startSiteProcess({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      const api = await staffApi(site);
      const event = await createEvent(api, { name: "Quiz Night" });
      await page.goto(`${site.url}/book-event/${event.id}`);
      const f = bookingForm(page);
      await fillBuyer(f);
      await fillCard(page, "4242 4242 4242 4242");
      await f.pay.click();
      await expect(confirmationOutcome(page).getByText("Payment succeeded!")).toBeVisible();
      const bookingRef = new URL(page.url()).searchParams.get("bookingRef")!;
      const alert = page.getByRole("alertdialog");
      await expect(alert).toContainText("Failed to send email receipt:");
      await expect(alert).toContainText(`Please make note of your booking reference upon arrival: ${bookingRef}`);
      await alert.getByRole("button", { name: "Okay" }).click();
      await expect(alert).toBeHidden();
      await expect(confirmationOutcome(page).getByText("Payment succeeded!")).toBeVisible();
      const booking = await (await api.get(`/api/admin/bookings/${bookingRef}`)).json();
      expect(booking.status).toBe("paid");
    } finally {
      await page.goto("about:blank");
      await site.stop();
    }
  },
);

sharedSiteTest.describe("with Stripe configured", () => {
  sharedSiteTest.slow();
  // Stripe.js cannot load on a machine without internet; Chromium logs the refused script.
  sharedSiteTest.use({ allowedConsoleErrors: [/js\.stripe\.com|Failed to load Stripe\.js|ERR_/] });

  sharedSiteTest(
    "returning from the payment, the visitor sees Loading... until Stripe has answered, then the outcome once",
    async ({ page }) => {
      const { StripeStandIn } = await import("../support/stripe-standin");
      const stripe = await new StripeStandIn().start();
      const site = await startSiteProcess({
        STRIPE_SECRET_KEY: "sk_test_x",
        STRIPE_PUBLISHABLE_KEY: "pk_test_x",
        STRIPE_WEBHOOK_SECRET: "whsec_test",
        STRIPE_API_URL: stripe.url,
      });
      try {
        const event = await createEvent(await staffApi(site), { name: "Quiz Night" });
        const started = await page.request.post(`${site.url}/api/bookings`, {
          data: { eventId: event.id, name: "Amina Mushi", email: "amina@example.org", quantity: 2 },
        });
        const { bookingRef } = (await started.json()) as { bookingRef: string };
        stripe.setStatus("pi_test_1", "succeeded");
        // Stripe is slow to answer: the page must not sit blank meanwhile.
        const release = stripe.holdReads();
        const params = new URLSearchParams({
          eventId: event.id,
          eventName: "Quiz Night",
          eventLoaction: "St Mary's Church Hall",
          eventDate: "2030-01-01",
          bookingRef,
          ticketCost: "12.50",
          ticketQuantity: "2",
          userName: "Amina Mushi",
          userEmail: "amina@example.org",
        });
        await page.goto(`${site.url}/confirmation?${params}`, { waitUntil: "commit" });
        await expect(page.getByRole("heading", { name: "Booking confirmation" })).toBeVisible();
        await expect(confirmationOutcome(page).getByText("Loading...")).toBeVisible();
        await expect(confirmationOutcome(page).getByText("Payment succeeded!")).toHaveCount(0);
        release();
        await expect(confirmationOutcome(page).getByText("Payment succeeded!")).toBeVisible();
        await expect(confirmationOutcome(page).getByText("Loading...")).toHaveCount(0);
        // React's hidden holding place for the streamed outcome is gone once it has been swapped in.
        await expect(page.locator('div[hidden][id^="S:"]')).toHaveCount(0);
        await expect(page.getByRole("region", { name: "Your booking" })).toHaveCount(1);
        await expect(page.getByRole("region", { name: "Your booking" })).toContainText("£25.49");
        await expectNoSeriousA11yViolations(page);
        await page.goto("about:blank");
      } finally {
        await site.stop();
        await stripe.stop();
      }
    },
  );

  sharedSiteTest(
    "the browser gets only the publishable key, and Pay now waits for Stripe's card form",
    async ({ page }) => {
      const { StripeStandIn } = await import("../support/stripe-standin");
      const stripe = await new StripeStandIn().start();
      const site = await startSiteProcess({
        STRIPE_SECRET_KEY: "sk_test_secret_never_in_browser",
        STRIPE_PUBLISHABLE_KEY: "pk_test_publishable",
        STRIPE_WEBHOOK_SECRET: "whsec_test",
        STRIPE_API_URL: stripe.url,
      });
      try {
        const event = await createEvent(await staffApi(site), { name: "Quiz Night" });
        const scripts: string[] = [];
        page.on("response", async (response) => {
          if (response.url().startsWith(site.url) && /javascript|html/.test(response.headers()["content-type"] ?? "")) {
            scripts.push(await response.text().catch(() => ""));
          }
        });
        const response = await page.goto(`${site.url}/book-event/${event.id}`);
        expect(response!.headers()["content-security-policy"]).toContain("https://js.stripe.com");
        await expect(page.getByRole("button", { name: "Loading..." })).toBeDisabled();
        // Here Stripe.js cannot load at all, and the visitor is told rather than left waiting.
        await expect(page.getByText(/An unexpected error occurred: the card form could not be loaded/)).toBeVisible();
        await expect(page.getByText(/no real money is charged/)).toHaveCount(0);
        expect(scripts.join("\n")).toContain("pk_test_publishable");
        expect(scripts.join("\n")).not.toContain("sk_test_secret_never_in_browser");
        await page.goto("about:blank");
      } finally {
        await site.stop();
        await stripe.stop();
      }
    },
  );
});
