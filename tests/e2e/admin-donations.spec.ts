import fs from "node:fs/promises";
import type { Download } from "@playwright/test";
import { buyTickets } from "../support/bookings";
import { giveDonation, londonDaysAgo } from "../support/donations";
import { expect, expectNoSeriousA11yViolations, test, useSiteWithMailServer } from "../support/fixtures";
import { staffAccount } from "../support/site-process";
import { createEvent, signIn, staffApi, openStaffSection } from "../support/staff-api";
import { hydrated } from "../support/hydration";

// The donations pages and the Gift Aid claim: donations given through the donation API and the
// offline card provider (as the donation page does), a refund through the page with the donor's
// e-mail over SMTP, HMRC's claim schedule with exactly the right rows, a claim marked, a
// declaration cancelled; on a 390 px phone, with axe on every page and state.

async function csvLines(download: Download): Promise<string[]> {
  const text = await fs.readFile((await download.path())!, "utf8");
  expect(text.startsWith("\uFEFF")).toBe(true);
  return text.slice(1).trimEnd().split("\r\n");
}

/** Today's London date as the claim schedule writes it (DD/MM/YY). */
function scheduleToday() {
  const [day, month, year] = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/London",
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
  })
    .format(new Date())
    .split("/");
  return `${day}/${month}/${year!.slice(-2)}`;
}

test.describe("donations and Gift Aid for staff", () => {
  const running = useSiteWithMailServer("Kilele Village Trust <giving@example.org>");
  test.use({ viewport: { width: 390, height: 844 } });
  test.slow();

  test("the Gift Aid claim holds exactly the covered donations; refunds, claims and cancellations keep it right", async ({
    page,
    browser,
  }) => {
    const site = running.site.url;
    const visitor = await (await browser.newContext({ baseURL: site })).request;
    const api = await staffApi(running.site);

    // Halima's donation is claimed first (through the staff API), then refunded: HMRC must be told.
    const halima = await giveDonation(visitor, {
      amount: "12",
      name: "Halima Ali",
      email: "halima@example.org",
      declaration: { firstName: "Halima", surname: "Ali", house: "3", postcode: "LS1 4AB", scope: "this-donation" },
    });
    const earlierClaim = londonDaysAgo(30);
    const firstClaim = await api.post("/api/admin/gift-aid/claims", {
      data: { claimedOn: earlierClaim.iso, donationIds: [halima] },
    });
    expect(firstClaim.status(), await firstClaim.text()).toBe(201);
    expect(
      (
        await api.post("/api/admin/gift-aid/claims", { data: { claimedOn: earlierClaim.iso, donationIds: [halima] } })
      ).status(),
    ).toBe(409);
    const halimaRefund = await api.post(`/api/admin/donations/${halima}/refund`, {
      data: { reason: "Asked for it back", key: "api-1" },
    });
    expect(halimaRefund.status(), await halimaRefund.text()).toBe(200);

    // Amina gives without Gift Aid, then with a declaration reaching back four years: both count.
    const aminaFirst = await giveDonation(visitor, { amount: "5", name: "Amina Mushi", email: "amina@example.org" });
    const aminaDeclared = await giveDonation(visitor, {
      amount: "25",
      name: "Amina Mushi",
      email: "AMINA@example.org",
      declaration: {
        firstName: "Amina",
        surname: "Mushi-Kimaro",
        house: "Flat 2, Rose Cottage",
        postcode: "m1 1ae",
        scope: "this-and-past-four-years",
      },
    });
    // Juma never declared: never claimed.
    await giveDonation(visitor, { amount: "30", name: "Juma Said", email: "juma@example.org" });
    // Bartholomew's first name is longer than HMRC's 35 characters.
    const bart = await giveDonation(visitor, {
      amount: "10",
      name: "Bart Jones",
      email: "bart@example.org",
      declaration: {
        firstName: "Bartholomew Alexander Maximilian Jonas",
        surname: "Jones",
        house: "12",
        postcode: "sw1a1aa",
        scope: "past-four-years-and-future",
      },
    });
    // Grace's donation is refunded through the page below.
    await giveDonation(visitor, {
      amount: "15",
      name: "Grace Kimaro",
      email: "grace@example.org",
      declaration: { firstName: "Grace", surname: "Kimaro", house: "7", postcode: "B1 1AA", scope: "this-donation" },
    });
    // Tickets are not donations.
    const event = await createEvent(api, { name: "Quiz Night" });
    await buyTickets(visitor, event.id, { name: "Tariq Ticket", email: "tariq@example.org", quantity: 2 });
    await expect.poll(() => running.smtp.received.length).toBeGreaterThanOrEqual(7);

    await signIn(page, { url: site });
    await page.goto(`${site}/admin`);
    await openStaffSection(page, "Donations");
    await expect(page.getByRole("heading", { name: "Donations", level: 1 })).toBeVisible();
    await expect(page.getByText("6 donations, newest first.")).toBeVisible();
    await expect(page.getByText("Tariq")).toHaveCount(0);
    const halimaRow = page.getByRole("row", { name: /Halima Ali/ });
    await expect(halimaRow).toContainText("Refunded");
    await expect(halimaRow).toContainText(`Claimed in the claim of ${earlierClaim.shown}; since refunded: tell HMRC`);
    await expect(page.getByRole("row", { name: /Juma Said/ })).toContainText("None");
    await expectNoSeriousA11yViolations(page);

    // Refund Grace's donation: a reason is required, the question is asked, the donor is told.
    await page.getByRole("link", { name: "Grace Kimaro" }).click();
    await expect(page.getByRole("heading", { name: "Donation of £15.00", level: 1 })).toBeVisible();
    await expect(page.getByText("I want to Gift Aid my donation of £15.00 to Kilele Village Trust.")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("button", { name: "Refund donation" }).click();
    await expect(page.getByLabel("Reason")).toHaveAccessibleDescription(
      "Please say why the donation is refunded (at most 500 characters).",
    );
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    await page.getByLabel("Reason").fill("Gave twice by mistake");
    await page.getByRole("button", { name: "Refund donation" }).click();
    const refundDialog = page.getByRole("alertdialog", { name: "Refund this donation?" });
    await expect(refundDialog).toContainText("£15.00 will be given back to the donor's card");
    await expect(refundDialog.getByRole("button", { name: "Keep it" })).toBeFocused();
    await expectNoSeriousA11yViolations(page);
    await refundDialog.getByRole("button", { name: "Refund the donation" }).click();
    await expect(page.getByRole("status").filter({ hasText: "refunded" })).toHaveText(
      "The donation is refunded, and the donor is told by e-mail.",
    );
    await expect(page.getByRole("button", { name: "Refund donation" })).toHaveCount(0);
    await expect(page.getByRole("row", { name: /Gave twice by mistake/ })).toContainText(staffAccount.email);
    await expectNoSeriousA11yViolations(page);
    await expect
      .poll(() => running.smtp.received.filter((m) => m.subject?.includes("has been refunded")).map((m) => m.subject))
      .toEqual([
        "Your donation of £12.00 to Kilele Village Trust has been refunded",
        "Your donation of £15.00 to Kilele Village Trust has been refunded",
      ]);
    const notice = running.smtp.received.find((m) => m.subject?.startsWith("Your donation of £15.00"))!;
    expect(notice.to && "text" in notice.to ? notice.to.text : "").toContain("grace@example.org");
    expect(notice.text).toContain("No Gift Aid will be claimed on this donation.");

    // Halima's page says HMRC must be told.
    await page.goto(`${site}/admin/donations/${halima}`);
    await expect(page.getByRole("note")).toContainText(
      "has since been refunded: tell HMRC, so that the claim is adjusted.",
    );
    await expectNoSeriousA11yViolations(page);

    // The claim: Amina's two (the first covered by the later declaration) and Bartholomew's.
    await page.goto(`${site}/admin/gift-aid`);
    await expect(page.getByRole("heading", { name: "Gift Aid claims", level: 1 })).toBeVisible();
    await expect(page.getByText("3 donations of £40.00 in all; Gift Aid to come: £10.00.")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download claim (CSV)" }).click();
    const today = scheduleToday();
    expect(await csvLines(await downloading)).toEqual([
      "Title,First name,Last name,House name or number,Postcode,Aggregated donations,Sponsored event,Donation date,Amount",
      `,Amina,Mushi Kimaro,"Flat 2, Rose Cottage",M1 1AE,,,${today},5.00`,
      `,Amina,Mushi Kimaro,"Flat 2, Rose Cottage",M1 1AE,,,${today},25.00`,
      `,Bartholomew Alexander Maximilian Jo,Jones,12,SW1A 1AA,,,${today},10.00`,
    ]);

    // Mark as claimed: the ready list is empty and the claim is in Past claims.
    await expect(page.getByLabel("Claim date")).not.toHaveValue("");
    await page.getByRole("button", { name: "Mark as claimed" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Marked" })).toContainText(
      "Marked as claimed: 3 donations, £40.00, Gift Aid £10.00.",
    );
    await expect(page.getByText("No donations are ready to claim.")).toBeVisible();
    const past = page.getByRole("region", { name: "Table of past claims" }).locator("tbody tr");
    await expect(past).toHaveCount(2);
    await expect(past.first()).toContainText("£40.00");
    await expect(past.first()).toContainText(staffAccount.email);
    await expectNoSeriousA11yViolations(page);
    const again = page.waitForEvent("download");
    await past
      .first()
      .getByRole("link", { name: /^Download/ })
      .click();
    expect((await csvLines(await again)).slice(1)).toHaveLength(3);
    await past.first().getByRole("link").first().click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Gift Aid claim of \d\d\/\d\d\/\d{4}$/);
    await expect(page.locator("tbody tr")).toHaveCount(3);
    await expectNoSeriousA11yViolations(page);

    // Bartholomew cancels his declaration: his next donation is not claimed.
    await page.goto(`${site}/admin/donations/${bart}`);
    await hydrated(page.getByRole("button", { name: "Cancel declaration" })); // It asks first, with the scripts.
    await page.getByRole("button", { name: "Cancel declaration" }).click();
    const cancelDialog = page.getByRole("alertdialog", { name: "Cancel this Gift Aid declaration?" });
    await expectNoSeriousA11yViolations(page);
    await cancelDialog.getByRole("button", { name: "Cancel the declaration" }).click();
    await expect(page.getByRole("status").filter({ hasText: "cancelled" })).toHaveText(
      "The declaration is cancelled: later donations are not claimed under it.",
    );
    await expect(page.getByText(`recorded by ${staffAccount.email}`)).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancel declaration" })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await giveDonation(visitor, { amount: "8", name: "Bart Jones", email: "bart@example.org" });
    await page.goto(`${site}/admin/gift-aid`);
    await expect(page.getByText("No donations are ready to claim.")).toBeVisible();

    // Filters and totals per month on the donations page.
    await page.goto(`${site}/admin/donations`);
    const month = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/London",
      month: "long",
      year: "numeric",
    }).format(new Date());
    // Paid and not refunded: £5 + £25 + £30 + £10 + £8; Gift Aid on £5, £25 and £10 (the £8 came after the cancellation).
    await expect(page.getByRole("row", { name: new RegExp(month) }).getByRole("cell")).toHaveText([
      "5",
      "£78.00",
      "£10.00",
    ]);
    await page.getByLabel("Status").selectOption("refunded");
    await page.getByRole("button", { name: "Show donations" }).click();
    await expect(page).toHaveURL(/status=refunded/);
    await expect(page.getByText("2 donations, newest first.")).toBeVisible();
    await expect(page.getByText("No paid donations match these filters.")).toBeVisible();
    await page.getByLabel("Status").selectOption("all");
    await page.getByLabel("Gift Aid").selectOption("without");
    await page.getByRole("button", { name: "Show donations" }).click();
    await expect(page.getByText("2 donations, newest first.")).toBeVisible();
    await expect(page.locator("tbody").last()).toContainText("Juma Said");
    await expectNoSeriousA11yViolations(page);
    await page.goto(`${site}/admin/donations?from=2999-01-02&to=2999-01-01`);
    await expect(page.getByLabel("To", { exact: true })).toHaveAccessibleDescription(
      "The To date must be on or after the From date.",
    );
    await page.goto(`${site}/admin/donations?from=2999-01-01`);
    await expect(page.getByText("No donations match these filters.")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The audit log names what was done, never the donors.
    await page.goto(`${site}/admin/audit`);
    const log = page.locator("tbody");
    for (const label of [
      "Refunded a donation",
      "Marked a Gift Aid claim as made",
      "Downloaded a Gift Aid claim",
      "Recorded a cancelled Gift Aid declaration",
    ]) {
      await expect(log.getByRole("row", { name: new RegExp(label) }).first()).toBeVisible();
    }
    await expect(log).not.toContainText("Grace");
    await expect(log).not.toContainText("Kimaro");

    // The JSON list carries the new fields.
    const listed = (await (await api.get("/api/admin/donations")).json()) as {
      donations: { id: string; status: string; giftAidClaimId: string | null; refundedAt: string | null }[];
    };
    expect(listed.donations.find((d) => d.id === aminaFirst)).toMatchObject({
      status: "paid",
      giftAidClaimId: expect.any(String),
    });
    expect(listed.donations.find((d) => d.id === aminaDeclared)!.giftAidClaimId).toBe(
      listed.donations.find((d) => d.id === aminaFirst)!.giftAidClaimId,
    );
    expect(listed.donations.find((d) => d.id === halima)).toMatchObject({
      status: "refunded",
      refundedAt: expect.any(String),
    });
  });
});
