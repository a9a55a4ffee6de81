import type { ParsedMail } from "mailparser";
import sharp from "sharp";
import { fromLondonInput } from "~/lib/london-time";
import { fillCard } from "../support/bookings";
import { confirmationOutcome, expect, test, useSiteWithMailServer } from "../support/fixtures";
import { readContent } from "../support/content";
import { readQr } from "../support/qr";
import { createEvent, staffApi } from "../support/staff-api";

// The receipts a buyer and a donor get after paying through the site, as their mail program
// receives them over SMTP: a reply goes to the charity, the logo is inside the e-mail, and the
// payment is named by its date and the card's last four digits.

const site = readContent("site");

/** Replying reaches the charity, from whichever address the mail server sends. */
function expectRepliesToTheCharity(mail: ParsedMail) {
  expect(mail.from?.value[0]?.address).toBe("no-reply@example.org");
  expect(mail.replyTo?.value.map((a) => a.address)).toEqual([site.email]);
}

/** The logo is attached as a PNG and the HTML shows it by its Content-ID, with the charity's name for words. */
async function expectTheLogo(mail: ParsedMail) {
  const logo = mail.attachments.find((a) => a.cid === "charity-logo");
  expect(logo?.contentType).toBe("image/png");
  expect((await sharp(logo!.content).metadata()).format).toBe("png");
  // The mail reader puts an attachment in the place of the `cid:` that names it: the HTML shows this one.
  const inline = `<img src="data:image/png;base64,${logo!.content.toString("base64")}"`;
  expect(mail.html).toContain(`${inline} width="56" height="56" alt="${site.charityName}"`);
}

/** The "Paid on" line names the London minute the payment was made in, between `before` and `after`. */
function expectPaidBetween(text: string, before: number, after: number) {
  const match = /Paid on: (\d\d)\/(\d\d)\/(\d{4}) at (\d\d):(\d\d)/.exec(text);
  expect(match, "a Paid on line").not.toBeNull();
  const [, day, month, year, hour, minute] = match!;
  const paid = Date.parse(fromLondonInput(`${year}-${month}-${day}T${hour}:${minute}`)!);
  expect(paid).toBeGreaterThanOrEqual(before - 60_000);
  expect(paid).toBeLessThanOrEqual(after);
}

test.describe("receipts by e-mail", () => {
  test.slow();
  const running = useSiteWithMailServer("Kilele Village Trust <no-reply@example.org>");

  test("a booking's receipt: reply to the charity, the logo, the line 2 × £12.50, the card's last four, the date, directions", async ({
    page,
  }) => {
    const api = await staffApi(running.site);
    const event = await createEvent(api, {
      name: "Barn Dance",
      ticketCost: 12.5,
      location: "Eastnor Village Hall, Ledbury",
    });
    await page.goto(`${running.site.url}/book-event/${event.id}`);
    await page.getByLabel("Name", { exact: true }).fill("Amina Mushi");
    await page.getByLabel("Email", { exact: true }).fill("amina@example.org");
    await page.getByLabel(/^Number of tickets/).fill("2");
    await fillCard(page);
    const before = Date.now();
    await page.getByRole("button", { name: /^Pay now/ }).click();
    await expect(page).toHaveURL(/\/confirmation\?/);
    await expect(confirmationOutcome(page).getByText("Payment succeeded!")).toBeVisible();
    const bookingRef = new URL(page.url()).searchParams.get("bookingRef")!;

    await expect.poll(() => running.smtp.sentTo("amina@example.org").length).toBe(1);
    const after = Date.now();
    const mail = running.smtp.sentTo("amina@example.org")[0]!;
    expectRepliesToTheCharity(mail);
    await expectTheLogo(mail);
    const text = mail.text ?? "";
    const hex = bookingRef.slice(0, 8).toUpperCase();
    const code = `${hex.slice(0, 4)}-${hex.slice(4)}`;
    expect(text).toContain(`Booking code for the door: ${code}`);
    expect(text).toContain(`Booking reference: ${bookingRef}`);
    expect(text).toContain("Location: Eastnor Village Hall, Ledbury");
    expect(text).toContain(
      "Directions: Map of Eastnor Village Hall, Ledbury (https://www.openstreetmap.org/search?query=Eastnor+Village+Hall%2C+Ledbury)",
    );
    expect(text).toContain("Tickets: 2 × £12.50 = £25.00\nBooking fee: £0.49\nTotal paid: £25.49");
    expect(text).toContain("Card: Visa ending 4242");
    expectPaidBetween(text, before, after);
    expect(text).toContain(site.receipts.ticketRefundPolicy);
    expect(mail.html).toContain(`href="mailto:${site.email}"`);
    // The QR code for the door and the calendar file are still there.
    const qr = mail.attachments.find((a) => a.cid === "booking-qr")!;
    expect(await readQr(qr.content)).toMatch(new RegExp(`/admin/check-in/ticket/${bookingRef}$`));
    expect(mail.attachments.some((a) => a.contentType === "text/calendar")).toBe(true);
  });

  test("a donation's thank-you without Gift Aid: reply to the charity, the logo, the card, the date, what Gift Aid would add", async ({
    page,
  }) => {
    await page.goto(`${running.site.url}/payment?amount=10.00`);
    await page.getByLabel("Name", { exact: true }).fill("Amina Mushi");
    await page.getByLabel("Email", { exact: true }).fill("amina@example.org");
    await fillCard(page);
    const before = Date.now();
    await page.getByRole("button", { name: /^Pay now/ }).click();
    await expect(page.getByRole("region", { name: "Thank you for your donation!" })).toBeVisible();
    const donationId = new URL(page.url()).searchParams.get("donation")!;

    await expect.poll(() => running.smtp.sentTo("amina@example.org").length).toBe(1);
    const after = Date.now();
    const mail = running.smtp.sentTo("amina@example.org")[0]!;
    expectRepliesToTheCharity(mail);
    await expectTheLogo(mail);
    const text = mail.text ?? "";
    expect(text).toContain("Thank you for your donation of £10.00 to Kilele Village Trust");
    expect(text).toContain(`Donation reference: ${donationId}`);
    expect(text).toContain("Amount: £10.00");
    expect(text).toContain("Card: Visa ending 4242");
    expectPaidBetween(text, before, after);
    expect(text).toContain(site.receipts.whatYourGiftDoes);
    expect(text).toContain("Gift Aid: Not declared");
    expect(text).toContain("£2.50 on this gift, making it worth £12.50");
    expect(text).toContain(site.receipts.donationRefundPolicy);
    expect(text).toContain(`registered charity number ${site.registrationNumber}`);
  });
});
