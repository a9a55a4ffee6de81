import { expect, expectNoSeriousA11yViolations, test, useSiteWithMailServer } from "../support/fixtures";
import { openStaffSection, signIn } from "../support/staff-api";
import { hydrated } from "../support/hydration";

// Monthly giving as staff run it (issue 34): the monthly giving page on a laptop and a phone, a
// gift's page, a fresh private link sent to the donor, and the gift cancelled at the donor's
// request after the one question, each with its e-mail to the donor.

const running = useSiteWithMailServer("giving@kilele.example");
test.use({ baseURL: undefined });

test("staff see the monthly gifts, send a donor a fresh link and cancel a gift at the donor's request", async ({
  page,
}) => {
  const { site, smtp } = running;
  // A donor's £10 a month, as the donation page starts it, paid with the offline test card.
  const started = await page.request.post(`${site.url}/api/regular-gifts`, {
    data: { amount: "10.00", dayOfMonth: "15", name: "Amina Mushi", email: "amina@example.org", giftAid: false },
    headers: { Origin: site.url },
  });
  expect(started.status(), await started.text()).toBe(201);
  const gift = (await started.json()) as { regularGiftId: string; clientSecret: string };
  const paid = await page.request.post(`${site.url}/api/payments/offline/confirm`, {
    data: { ...gift, card: { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" } },
    headers: { Origin: site.url },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  await expect.poll(() => smtp.sentTo("amina@example.org").length).toBe(1);

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, { url: site.url });
  await page.goto(`${site.url}/admin`);
  await openStaffSection(page, "Monthly giving");
  await expect(page.getByRole("heading", { name: "Monthly giving", level: 1 })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: "£10.00" }).first()).toBeVisible();
  const row = page.getByRole("row", { name: /Amina Mushi/ });
  await expect(row).toContainText("£10.00 on the 15th");
  await expect(row).toContainText("Active");
  await expectNoSeriousA11yViolations(page);

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousA11yViolations(page);
  await row.getByRole("link", { name: "Amina Mushi" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Monthly gift of £10.00 from Amina Mushi");
  await expectNoSeriousA11yViolations(page);

  await page.getByRole("button", { name: "Send a fresh link" }).click();
  await expect(page.getByRole("status")).toContainText("A fresh private link is on its way to the donor.");
  await expect
    .poll(() => smtp.sentTo("amina@example.org").map((mail) => mail.subject))
    .toContain("Your link to your monthly gift to Kilele Village Trust");

  await hydrated(page.getByRole("button", { name: "Cancel this gift" })); // It asks first, with the scripts.
  await page.getByRole("button", { name: "Cancel this gift" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Cancel this monthly gift?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel the gift" }).click();
  await expect(page.getByRole("status")).toContainText("The monthly gift is cancelled");
  await expect(page.getByRole("definition").filter({ hasText: "Cancelled" }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel this gift" })).toHaveCount(0);
  await expect(page.getByRole("listitem").filter({ hasText: "Cancelled the monthly gift of £10.00" })).toBeVisible();
  await expect
    .poll(() => smtp.sentTo("amina@example.org").map((mail) => mail.subject))
    .toContain("Your monthly gift to Kilele Village Trust is cancelled");
  await expectNoSeriousA11yViolations(page);
});
