import type { Page } from "@playwright/test";
import { buyTickets } from "../support/bookings";
import { giveDonation } from "../support/donations";
import { expect, expectNoSeriousA11yViolations, test } from "../support/fixtures";
import { hydrated } from "../support/hydration";
import { createEvent, signIn, staffApi } from "../support/staff-api";

// Finding people by name (decision 077): a booking and a donation by the buyer's or donor's name
// or e-mail, accents and capitals ignored; a guest at the door by name, the card changing when
// they are checked in; and a refund whose reason was typed before the page's scripts ran.

test.slow();

/** Letters no other test's names have, so a search on the shared site finds this test's people only. */
function tag() {
  return Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");
}

const hour = 3_600_000;

test("staff find a booking and a donation by name or e-mail, accents and capitals ignored, and are told plainly when nothing matches", async ({
  page,
  site,
}) => {
  const api = await staffApi(site);
  const t = tag();
  const surname = `Okafor${t}`;
  const event = await createEvent(api, { name: "Harvest Supper" });
  const siobhan = await buyTickets(api, event.id, {
    name: `Siobhán ${surname}`,
    email: `siobhan.${t}@example.org`,
    quantity: 2,
  });
  await buyTickets(api, event.id, { name: `Grace ${surname}`, email: `grace.${t}@example.org`, quantity: 1 });
  await giveDonation(api, { amount: "15.00", name: `Siobhán ${surname}`, email: `siobhan.${t}@example.org` });
  await giveDonation(api, { amount: "5.00", name: `Peter Mwangi${t}`, email: `peter.${t}@example.org` });
  await signIn(page);
  await page.setViewportSize({ width: 390, height: 844 });

  // Bookings: the surname alone, in capitals, lists both, each with its event.
  await page.goto("/admin/bookings");
  const search = page.getByLabel("Name, e-mail or booking code");
  await search.fill(surname.toUpperCase());
  await page.getByRole("button", { name: "Find" }).click();
  const results = page.getByRole("region", { name: `Bookings matching “${surname.toUpperCase()}”` });
  await expect(results.getByRole("status")).toHaveText("2 bookings, best matches first.");
  await expect(results.getByRole("listitem")).toHaveCount(2);
  await expect(results).toContainText("Harvest Supper");
  await expectNoSeriousA11yViolations(page);

  // Without the accent, then by the start of the e-mail address: Siobhán's booking.
  for (const typed of [`Siobhan ${surname}`, `siobhan.${t}@`]) {
    await search.fill(typed);
    await page.getByRole("button", { name: "Find" }).click();
    const found = page.getByRole("region", { name: `Bookings matching “${typed}”` });
    await expect(found.getByRole("listitem")).toHaveCount(1);
    await expect(found.getByRole("link")).toHaveText(`Siobhán ${surname}`);
  }
  await page.getByRole("link", { name: `Siobhán ${surname}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/bookings/${siobhan}$`));

  // Nothing matches: said plainly, with what to try.
  await page.goto("/admin/bookings");
  await search.fill(`Nobody${t}`);
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.locator("#booking-search-error")).toHaveText(
    `No booking matches “Nobody${t}”. Try the surname alone, the start of the e-mail address, or the 8-character code on the receipt (such as 3F9A-1C2B).`,
  );
  await expectNoSeriousA11yViolations(page);

  // Donations: by name without the accent, and by the start of the e-mail.
  await page.goto("/admin/donations");
  const donations = page.getByLabel("Name or e-mail");
  for (const typed of [`siobhan ${surname.toLowerCase()}`, `SIOBHAN.${t}`]) {
    await donations.fill(typed);
    await page.getByRole("button", { name: "Show donations" }).click();
    await expect(page.getByText(`1 donation matching “${typed}”, best matches first.`)).toBeVisible();
    await expect(page.locator("table").last()).toContainText(`Siobhán ${surname}`);
    await expect(page.locator("table").last()).not.toContainText(`Peter Mwangi${t}`);
  }
  await donations.fill(`Nobody${t}`);
  await page.getByRole("button", { name: "Show donations" }).click();
  await expect(
    page.getByText(`No donation matches “Nobody${t}”. Try the surname alone or the start of the e-mail address.`),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("the door finds a guest by name and checks them in, and the card changes so nobody doubts the tap", async ({
  page,
  site,
}) => {
  const api = await staffApi(site);
  const event = await createEvent(api, {
    name: "Carol Concert",
    eventDate: new Date(Date.now() + 2 * hour).toISOString(),
    ticketSaleExpiry: new Date(Date.now() + hour).toISOString(),
  });
  await buyTickets(api, event.id, { name: "Siobhán Okafor", email: "siobhan@example.org", quantity: 2 });
  await buyTickets(api, event.id, { name: "Chidi Okafor", email: "chidi@example.org", quantity: 1 });
  await buyTickets(api, event.id, { name: "Neema Mollel", email: "neema@example.org", quantity: 1 });
  await signIn(page);
  await page.setViewportSize({ width: 390, height: 844 });

  // "okafor", typed and sent before the page's scripts ran: the page answers it once they run.
  const release = await holdScripts(page);
  await page.goto(`/admin/check-in/${event.id}`, { waitUntil: "domcontentloaded" });
  const lookUp = page.getByLabel("Name, booking code or e-mail");
  await lookUp.fill("okafor");
  await lookUp.press("Enter");
  await expect(page).toHaveURL(/\?ref=okafor$/);
  release();
  await expect(page.locator(".door-connection [role=status]")).toHaveText("Online: every check-in is sent.");

  // Two bookings of this event match; staff choose Siobhán's.
  const choices = page.getByRole("region", { name: "2 bookings match “okafor”" });
  await expect(choices.getByRole("heading")).toBeFocused();
  await expectNoSeriousA11yViolations(page);
  await choices.getByRole("button", { name: /^Siobhán Okafor/ }).click();
  const card = page.locator(".door-answer");
  await expect(card.getByRole("heading")).toHaveText("Valid");
  await expect(card).toContainText("0 of 2 checked in");

  await page.getByRole("button", { name: "Check in 2" }).click();
  // The card changes: its title, its colour, and a confirmation read out.
  await expect(card.getByRole("heading")).toHaveText("Checked in: 2 of 2");
  await expect(card.getByRole("heading")).toHaveAttribute("aria-live", "assertive");
  await expect(card).toHaveClass(/door-answer-checked-in/);
  await expect(card).toContainText(/2 people let in at \d\d:\d\d by /);
  await expect(page.getByRole("button", { name: /^Check in/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  // "Next" is a button of ordinary size, not a giant oval.
  const next = page.getByRole("button", { name: "Next" });
  const box = (await next.boundingBox())!;
  expect(box.height).toBeLessThan(64);
  expect(box.width).toBeLessThan(390 * 0.6);
  await page.screenshot({ path: test.info().outputPath("door-checked-in-390.png") });
  await next.click();
  await expect(lookUp).toBeFocused();

  // One match goes straight to the card; a surname typed without its accent, by e-mail, and unknown.
  await lookUp.fill("SIOBHAN");
  await lookUp.press("Enter");
  await expect(card.getByRole("heading")).toHaveText("Already checked in");
  await next.click();
  await lookUp.fill("chidi@exa");
  await lookUp.press("Enter");
  await expect(card.getByRole("heading")).toHaveText("Valid");
  await expect(card).toContainText("Chidi Okafor");
  await next.click();
  await lookUp.fill("Okafr");
  await lookUp.press("Enter");
  await expect(card.getByRole("heading")).toHaveText("Not found");
  await expect(card).toContainText(
    "No booking for this event matches “Okafr”. Try the surname alone, the 8-character code on the receipt",
  );
});

/** Holds the page's scripts back until `release` is called, as on a slow phone. */
async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test("a refund reason typed before the page's scripts ran is kept, and the answer is where the eye is", async ({
  page,
  site,
}) => {
  const api = await staffApi(site);
  const event = await createEvent(api, { name: "Barn Dance" });
  const ref = await buyTickets(api, event.id, { name: "Amani Odhiambo", email: "amani@example.org", quantity: 3 });
  await signIn(page);
  await page.setViewportSize({ width: 390, height: 844 });

  const release = await holdScripts(page);
  await page.goto(`/admin/bookings/${ref}`, { waitUntil: "domcontentloaded" });
  await page.getByLabel("Tickets to refund").fill("1");
  await page.getByLabel("Reason").fill("One of them is unwell");
  const refund = page.getByRole("button", { name: "Refund", exact: true });
  // Before the scripts, Refund cannot be pressed: it would refund without asking first.
  await expect(refund).toBeDisabled();
  release();
  await hydrated(refund);
  await expect(page.getByLabel("Reason")).toHaveValue("One of them is unwell");
  // Another form of the page sent meanwhile leaves the reason being typed where it is.
  await page.getByRole("button", { name: "Resend receipt" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The receipt" })).toBeVisible();
  await expect(page.getByLabel("Reason")).toHaveValue("One of them is unwell");
  await refund.click();
  await page
    .getByRole("alertdialog")
    .getByRole("button", { name: /^Refund £/ })
    .click();

  const notice = page.getByRole("status").filter({ hasText: "Refunded:" });
  await expect(notice).toHaveText(/^Refunded: 1 ticket, £\d+\.\d\d\. The buyer is told by e-mail\.$/);
  await expect(notice).toBeFocused();
  await expect(notice).toBeInViewport({ ratio: 1 });
  await expect(page.locator(".booking-history")).toContainText("One of them is unwell");
  await page.screenshot({ path: test.info().outputPath("refunded-390.png") });

  // The history reads as words: the hold's end in London time with its weekday, the provider's
  // reference named and tucked away until asked for.
  const history = page.locator(".booking-history");
  await expect(history).toContainText(/3 × Ticket \(3 seats\) held until \w+day \d{1,2} \w+ \d{4} at \d\d:\d\d/);
  await expect(history).not.toContainText(/\d{4}-\d\d-\d\dT/);
  const reference = history.locator("details").first();
  await expect(reference.locator("code")).toBeHidden();
  await reference.locator("summary").click();
  await expect(reference).toContainText(/Test refund reference re_/);
  await expectNoSeriousA11yViolations(page);
});

test("a donation's refund reason typed before the scripts ran is kept, and the answer is in view", async ({
  page,
  site,
}) => {
  const api = await staffApi(site);
  const id = await giveDonation(api, { amount: "20.00", name: "Wanjiru Kamau", email: "wanjiru@example.org" });
  await signIn(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const release = await holdScripts(page);
  await page.goto(`/admin/donations/${id}`, { waitUntil: "domcontentloaded" });
  await page.getByLabel("Reason").fill("Given twice by mistake");
  const refund = page.getByRole("button", { name: "Refund donation" });
  await expect(refund).toBeDisabled();
  release();
  await hydrated(refund);
  await refund.click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Refund the donation" }).click();
  const notice = page.getByRole("status").filter({ hasText: "The donation is refunded" });
  await expect(notice).toBeFocused();
  await expect(notice).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole("table", { name: "Table of refunds" }).or(page.locator("table"))).toContainText(
    "Given twice by mistake",
  );
});
