import { buyTickets } from "../support/bookings";
import { expect, expectNoSeriousA11yViolations, test, useSiteWithMailServer } from "../support/fixtures";
import { createEvent, signIn, staffApi } from "../support/staff-api";

// Writing to an event's people (docs/decisions/095-messages-to-attendees.md), as staff do it: from
// the event's page, Write to attendees, choose who, write, Preview (the e-mail as the first
// recipient gets it), Send to N bookings, then the message's page with its counts; the e-mails
// reach a real mail server on loopback. Once with scripts (axe on each step), once without on a phone.

const running = useSiteWithMailServer("Kilele Village Trust <hello@example.org>");

test("staff write to an event's bookings: compose, preview, send; each booking gets one e-mail", async ({
  page,
  browser,
}) => {
  test.slow();
  const { site, smtp } = running;
  const api = await staffApi(site);
  const event = await createEvent(api, { name: "Harvest Supper" });
  await buyTickets(api, event.id, { name: "Amina Mushi", email: "amina@example.org", quantity: 3 });
  await buyTickets(api, event.id, { name: "Baraka Ole", email: "baraka@example.org", quantity: 1 });
  await api.dispose();

  await signIn(page, { url: site.url });
  await page.goto(`${site.url}/admin/events/${event.id}`);
  const messages = page.getByRole("region", { name: "Messages" });
  await expect(messages.getByText("No message has been sent about this event.")).toBeVisible();
  await messages.getByRole("link", { name: "Write to attendees" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Write to attendees: Harvest Supper");
  // Preview with nothing written: each field says what it needs.
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByLabel("Subject")).toHaveAttribute("aria-invalid", "true");
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("group", { name: "Send to" }).getByLabel("Everyone with a ticket (2 bookings)").check();
  await page.getByLabel("Subject").fill("Parking on the night");
  await page.getByLabel("Message").fill("Please park behind the hall.\n\nThe front gate is closed after six.");
  await page.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByRole("region", { name: "The e-mail's text" });
  await expect(preview).toContainText("Please park behind the hall.");
  await expect(preview).toContainText(/Dear (Amina Mushi|Baraka Ole),/);
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("button", { name: "Send to 2 bookings" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Parking on the night");
  await expect(page.getByText("The message is on its way")).toBeVisible();
  await expect.poll(() => smtp.received.filter((mail) => mail.subject === "Parking on the night").length).toBe(2);
  await page.getByRole("link", { name: "Refresh the counts" }).click();
  await expect(
    page.getByRole("region", { name: "Recipients" }).getByText("Baraka Ole <baraka@example.org>"),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  const parking = (address: string) => smtp.sentTo(address).filter((mail) => mail.subject === "Parking on the night");
  // Amina's three tickets are one booking: one e-mail.
  expect(parking("amina@example.org")).toHaveLength(1);
  expect(parking("baraka@example.org")[0]!.text).toContain("Dear Baraka Ole,");

  // Without scripts, on a phone: the same two steps are plain forms.
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const phone = await context.newPage();
  await signIn(phone, { url: site.url });
  await phone.goto(`${site.url}/admin/events/${event.id}/messages/new`);
  await phone.getByLabel("Those not checked in (2 bookings)").check();
  await phone.getByLabel("Subject").fill("Doors open at seven");
  await phone.getByLabel("Message").fill("See you there.");
  await phone.getByRole("button", { name: "Preview" }).click();
  await expect(phone.getByRole("region", { name: "The e-mail's text" })).toContainText("See you there.");
  await phone.getByRole("button", { name: "Send to 2 bookings" }).click();
  await expect(phone.getByRole("heading", { level: 1 })).toHaveText("Doors open at seven");
  await expect.poll(() => smtp.received.filter((mail) => mail.subject === "Doors open at seven").length).toBe(2);
  await phone.goto(`${site.url}/admin/events/${event.id}`);
  await expect(
    phone.getByRole("region", { name: "Messages" }).getByRole("link", { name: "Doors open at seven" }),
  ).toBeVisible();
  await context.close();
});
