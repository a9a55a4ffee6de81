import { confirmationOutcome, expect, expectNoSeriousA11yViolations, test } from "../support/fixtures";
import { startSiteProcess, type RunningSite } from "../support/site-process";
import { hydrated } from "../support/hydration";
import { serveStripeJs, type StripeJsCall } from "../support/stripe-js-standin";
import { StripeStandIn } from "../support/stripe-standin";
import { createEvent, staffApi } from "../support/staff-api";

// The site with Stripe configured, against stand-ins for both of Stripe's ends that this machine
// cannot reach: its API (tests/support/stripe-standin.ts) and Stripe.js in the browser
// (tests/support/stripe-js-standin.ts). What is tested is our side: the deferred intent created
// by our server for its own amount, the return_url, and settling on the return.
test.describe("paying through Stripe", () => {
  test.slow();
  let stripe: StripeStandIn;
  let site: RunningSite;
  let calls: StripeJsCall[];
  test.beforeEach(async ({ page }) => {
    stripe = await new StripeStandIn().start();
    site = await startSiteProcess({
      STRIPE_SECRET_KEY: "sk_test_secret_never_in_browser",
      STRIPE_PUBLISHABLE_KEY: "pk_test_publishable",
      STRIPE_WEBHOOK_SECRET: "whsec_test",
      STRIPE_API_URL: stripe.url,
    });
    // Stripe marks the intent succeeded when the card is confirmed, before sending the visitor back.
    calls = await serveStripeJs(page, (call) => {
      stripe.setStatus(call.clientSecret!.replace(/_secret_test$/, ""), "succeeded");
    });
  });
  test.afterEach(async ({ page }) => {
    await page.goto("about:blank");
    await site.stop();
    await stripe.stop();
  });

  test("Stripe's script is fetched on the pages that take a card, and on no other", async ({ page }) => {
    const event = await createEvent(await staffApi(site), { name: "Quiz Night", location: "St Mary's Hall" });
    const fetchedOn: string[] = [];
    page.on("request", (request) => {
      if (request.url().startsWith("https://js.stripe.com/")) fetchedOn.push(new URL(page.url()).pathname);
    });
    for (const path of ["/", "/about", "/fundraising", `/fundraising-event/${event.id}`, "/volunteering", "/payment"]) {
      await page.goto(site.url + path);
      // Once React has taken over the page, every script the page runs has loaded.
      await hydrated(page.locator("main"));
    }
    expect(fetchedOn).toEqual([]);
    await page.goto(`${site.url}/payment?amount=10.00`);
    await expect.poll(() => fetchedOn).toEqual(["/payment"]);
    await page.goto(`${site.url}/book-event/${event.id}`);
    await expect.poll(() => fetchedOn).toEqual(["/payment", `/book-event/${event.id}`]);
  });

  test("a booking: Pay now once Stripe's form is ready, the server's amount, and the spec's return_url", async ({
    page,
  }) => {
    const event = await createEvent(await staffApi(site), { name: "Quiz Night", location: "St Mary's Hall" });
    await page.goto(`${site.url}/book-event/${event.id}`);
    const pay = page.getByRole("button", { name: /^Pay now/ });
    await expect(pay).toHaveText("Pay now £12.99");
    await expect(page.getByText(/no real money is charged/)).toHaveCount(0);
    await page.getByLabel("Name", { exact: true }).fill("Amina Mushi");
    await page.getByLabel("Email", { exact: true }).fill("amina@example.org");
    await page.getByLabel(/^Number of tickets/).fill("2");
    await expect(pay).toHaveText("Pay now £25.49");
    // Stripe's Payment Element is told the amount shown (deferred intent), in pence.
    await expect.poll(() => calls.some((c) => c.name === "elements.update" && c.options?.amount === 2549)).toBe(true);

    await pay.click();
    await expect(page.getByText("Your card number is incomplete.")).toBeVisible();
    await page.getByLabel("Stripe test card number").fill("4000 0000 0000 0002");
    await pay.click();
    await expect(page.getByText("Your card was declined.")).toBeVisible();
    // Stripe.js told only the browser; the server checked with Stripe, cancelled the intent and gave the seats back.
    const declinedRef = stripe.intents.get("pi_test_1")!.metadata as { booking_ref: string };
    await expect
      .poll(async () => {
        const booking = await (await staffApi(site)).get(`/api/admin/bookings/${declinedRef.booking_ref}`);
        return ((await booking.json()) as { status: string }).status;
      })
      .toBe("cancelled");
    expect(stripe.intents.get("pi_test_1")!.status).toBe("canceled");
    await page.getByLabel("Stripe test card number").fill("4242 4242 4242 4242");
    await pay.click();

    await expect(page).toHaveURL(/\/confirmation\?/);
    await expect(confirmationOutcome(page).getByText("Payment succeeded!")).toBeVisible();
    const confirm = calls.find((c) => c.name === "confirmPayment")!;
    expect(confirm.publishableKey).toBe("pk_test_publishable");
    const returnUrl = new URL(confirm.confirmParams!.return_url);
    expect(returnUrl.pathname).toBe("/confirmation");
    expect(Object.fromEntries(returnUrl.searchParams)).toMatchObject({
      eventId: event.id,
      eventName: "Quiz Night",
      eventLoaction: "St Mary's Hall",
      ticketCost: "12.50",
      ticketQuantity: "2",
      userName: "Amina Mushi",
      userEmail: "amina@example.org",
    });
    expect(confirm.confirmParams!.receipt_email).toBe("amina@example.org");
    // Two attempts reached Stripe (the declined one and the paid one), each created by our server.
    const created = stripe.requests.filter((r) => r.path === "/v1/payment_intents");
    expect(created.map((r) => r.form.get("amount"))).toEqual(["2549", "2549"]);
    expect(confirm.clientSecret).toBe("pi_test_2_secret_test");
    const tickets = await (await (await staffApi(site)).get(`/api/admin/events/${event.id}/tickets`)).json();
    expect(tickets.tickets).toEqual([expect.objectContaining({ quantity: 2, ticketHolderName: "Amina Mushi" })]);
    await expectNoSeriousA11yViolations(page);
  });

  test("a donation: the intent for the validated amount, and the thank-you view on the return", async ({ page }) => {
    await page.goto(`${site.url}/payment?amount=10.00`);
    const pay = page.getByRole("button", { name: /^Pay now/ });
    await expect(pay).toHaveText("Pay now £10.00");
    await page.getByLabel("Name", { exact: true }).fill("Amina Mushi");
    await page.getByLabel("Email", { exact: true }).fill("amina@example.org");
    await page.getByLabel("Stripe test card number").fill("4242 4242 4242 4242");
    await pay.click();

    await expect(page.getByRole("heading", { name: "Thank you for your donation!" })).toBeVisible();
    const [create] = stripe.requests.filter((r) => r.path === "/v1/payment_intents");
    expect(create!.form.get("amount")).toBe("1000");
    expect(create!.form.get("currency")).toBe("gbp");
    const donationId = create!.form.get("metadata[donation_id]");
    const confirm = calls.find((c) => c.name === "confirmPayment")!;
    expect(confirm.confirmParams!.return_url).toBe(`${site.url}/payment?amount=10.00&donation=${donationId}`);
    const donations = await (await (await staffApi(site)).get("/api/admin/donations")).json();
    expect(donations.donations).toEqual([
      expect.objectContaining({ id: donationId, status: "paid", amountPence: 1000 }),
    ]);
  });
});
