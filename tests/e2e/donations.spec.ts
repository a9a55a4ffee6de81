import type { Page } from "@playwright/test";
import { fillCard } from "../support/bookings";
import {
  expect,
  expectNoSeriousA11yViolations,
  test as sharedSiteTest,
  useSiteWithMailServer,
  testWithOwnSite as test,
} from "../support/fixtures";
import type { RunningSite } from "../support/site-process";
import { staffApi } from "../support/staff-api";

const taxpayerStatement =
  "I am a UK taxpayer and understand that if I pay less Income Tax and/or Capital Gains Tax than the amount of Gift Aid claimed on all my donations in that tax year it is my responsibility to pay any difference.";

function donationForm(page: Page) {
  return {
    name: page.getByLabel("Name", { exact: true }),
    email: page.getByLabel("Email", { exact: true }),
    giftAid: page.getByLabel("Yes, I want to Gift Aid my donation"),
    firstName: page.getByLabel("First name"),
    surname: page.getByLabel("Surname"),
    house: page.getByLabel("House name or number"),
    postcode: page.getByLabel("Postcode"),
    pay: page.getByRole("button", { name: /^Pay now/ }),
  };
}

async function fillDonor(page: Page) {
  const f = donationForm(page);
  await f.name.fill("Amina Mushi");
  await f.email.fill("amina@example.org");
}

interface StaffDonation {
  id: string;
  status: string;
  amountPence: number;
  name: string;
  email: string;
  giftAid: null | { firstName: string; surname: string; postcode: string; scope: string; declaredAt: string };
}

async function staffDonations(site: Pick<RunningSite, "url">): Promise<StaffDonation[]> {
  const api = await staffApi(site);
  const response = await api.get("/api/admin/donations");
  expect(response.status()).toBe(200);
  return ((await response.json()) as { donations: StaffDonation[] }).donations;
}

sharedSiteTest(
  "the home and fundraising pages lead to the donation block, and each amount to /payment",
  async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "Give to Kilele" }).click();
    await expect(page).toHaveURL(/\/payment$/);
    await expect(page).toHaveTitle("Donate");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Donate");
    await expect(page.getByText(/Your gift goes straight to work in Kilele/)).toBeVisible();
    const chooser = page.getByRole("region", { name: "Choose an amount" });
    for (const amount of ["£5", "£10", "£25", "£50"]) {
      await expect(chooser.getByRole("link", { name: `Donate ${amount}`, exact: true })).toBeVisible();
    }
    await chooser.getByRole("link", { name: "Donate £25", exact: true }).click();
    await expect(page).toHaveURL(/\/payment\?amount=25\.00$/);
    await expect(donationForm(page).pay).toHaveText("Pay now £25.00");
    await expect(page.getByRole("region", { name: "Your donation" })).toContainText("£25.00");
    await expect(page.getByText("Paying by card needs JavaScript")).toBeHidden();
    await expectNoSeriousA11yViolations(page);

    // The amount is in the URL, so a reload or a shared link gives the same form.
    await page.reload();
    await expect(donationForm(page).pay).toHaveText("Pay now £25.00");

    await page.goto("/fundraising");
    const block = page.getByRole("region", { name: "Can't make an event? Give directly" });
    await block.getByRole("link", { name: "Donate £10" }).click();
    await expect(page).toHaveURL(/\/payment\?amount=10\.00$/);
    await expect(donationForm(page).pay).toHaveText("Pay now £10.00");
    await page.getByRole("link", { name: "Change amount" }).click();
    await expect(page).toHaveURL(/\/payment$/);
    await expect(page.getByRole("heading", { name: "Choose an amount" })).toBeVisible();
  },
);

sharedSiteTest("a custom amount in pounds and pence, with a message for anything out of bounds", async ({ page }) => {
  await page.goto("/payment");
  await expect(page.getByRole("heading", { name: "Choose an amount" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  const other = page.getByLabel("Other amount (£)");
  const next = page.getByRole("button", { name: "Continue" });
  const cases: [string, string][] = [
    ["0.99", "The smallest donation we can take by card is £1.00."],
    ["10000.01", "The largest donation we can take online is £10,000.00. For a larger gift, please contact us."],
    ["12.345", "Please enter an amount in pounds and pence, such as 25 or 12.50."],
    ["", "Please enter an amount in pounds and pence, such as 25 or 12.50."],
  ];
  for (const [typed, message] of cases) {
    await other.fill(typed);
    await next.click();
    await expect(page.getByText(message)).toBeVisible();
    await expect(other).toHaveAccessibleDescription(message);
    await expect(page.getByRole("button", { name: /^Pay now/ })).toHaveCount(0);
  }
  await other.fill("12.5");
  await expect(page.getByText(/^Please enter an amount/)).toHaveCount(0);
  await next.click();
  await expect(page).toHaveURL(/\/payment\?amount=12\.50$/);
  await expect(donationForm(page).pay).toHaveText("Pay now £12.50");

  // The same rule on the server, for a link or a form sent without JavaScript.
  await page.goto("/payment?amount=20000");
  await expect(page.getByText(/^The largest donation we can take online is £10,000\.00/)).toBeVisible();
  await expect(other).toHaveValue("20000");
  await page.goto("/payment?amount=£1");
  await expect(page).toHaveURL(/\/payment\?amount=1\.00$/);
  await expect(donationForm(page).pay).toHaveText("Pay now £1.00");
});

test("the details and the Gift Aid declaration are checked, each field with its own message", async ({
  page,
  ownSite,
}) => {
  await page.goto("/payment?amount=10.00");
  const f = donationForm(page);
  await expect(f.pay).toHaveText("Pay now £10.00");
  await expect(page.getByText(/It would add £2\.50, making your £10\.00 worth £12\.50/)).toBeVisible();
  await f.giftAid.check();
  await expect(f.giftAid).toHaveAccessibleDescription(
    `I want to Gift Aid my donation of £10.00 to Kilele Village Trust. ${taxpayerStatement}`,
  );
  const overview = page.getByRole("region", { name: "Your donation" });
  await expect(overview).toContainText("Gift Aid from HMRC£2.50");
  await expect(overview).toContainText("Worth to the Trust£12.50");
  await f.pay.click();
  await expect(page.getByText("Invalid donation information: please check the details marked below.")).toBeVisible();
  for (const message of [
    "Invalid name: name must only contain letters and not be left blank.",
    "Invalid email: please enter a valid email address.",
    "Please enter your first name, in letters, for Gift Aid.",
    "Please enter your surname, in letters, for Gift Aid.",
    "Please enter your house name or number for Gift Aid.",
    "Please enter a UK postcode, such as SW1A 1AA.",
  ]) {
    await expect(page.getByText(message)).toBeVisible();
  }
  await expectNoSeriousA11yViolations(page);

  await fillDonor(page);
  await f.firstName.fill("Amina");
  await f.surname.fill("Mushi");
  await f.house.fill("12");
  await f.postcode.fill("75001");
  await expect(page.getByText(/^Invalid name/)).toHaveCount(0);
  await f.pay.click();
  await expect(page.getByText("Please enter a UK postcode, such as SW1A 1AA.")).toBeVisible();
  await expect(f.postcode).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("This donation, any in the past four years, and all future donations until I cancel").check();
  await expect(f.giftAid).toHaveAccessibleDescription(
    /any donations I make in the future or have made in the past 4 years/,
  );

  // Unticking Gift Aid drops the declaration and its fields.
  await f.giftAid.uncheck();
  await expect(f.postcode).toHaveCount(0);
  await expect(overview).not.toContainText("Gift Aid from HMRC");
  expect(await staffDonations(ownSite)).toEqual([]);
});

test("what a donor types and ticks before the scripts run is kept when they take over (decision 045)", async ({
  page,
  ownSite,
}) => {
  // The page's scripts are held back until the donor has filled the form in, as on a slow phone
  // or with the browser's autofill: the server's page has working fields before them.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto("/payment?amount=10.00", { waitUntil: "domcontentloaded" });
  const f = donationForm(page);
  await fillDonor(page);
  await f.giftAid.check();
  await fillCard(page, "4242 4242 4242 4242");
  // Before the scripts, ticking Gift Aid opens nothing and the card cannot be paid.
  await expect(f.firstName).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Loading..." })).toBeDisabled();
  release();

  // Once the scripts run, the form works from what is in its fields: Gift Aid's details open,
  // with the first name and surname taken from the name typed before.
  await expect(f.firstName).toHaveValue("Amina");
  await expect(f.surname).toHaveValue("Mushi");
  await expect(f.name).toHaveValue("Amina Mushi");
  await expect(page.getByRole("region", { name: "Your donation" })).toContainText("Gift Aid from HMRC£2.50");
  await f.pay.click();
  // Only what is really missing is reported: not the name or e-mail typed before the scripts.
  await expect(page.getByText("Please enter your house name or number for Gift Aid.")).toBeVisible();
  await expect(page.getByText(/^Invalid name/)).toHaveCount(0);
  await expect(page.getByText(/^Invalid email/)).toHaveCount(0);
  await f.house.fill("Rose Cottage");
  await f.postcode.fill("SW1A 1AA");
  await page.getByLabel("This donation only").check();
  // The card typed before the scripts pays.
  await f.pay.click();
  await expect(page.getByRole("heading", { name: "Thank you for your donation!" })).toBeVisible();
  const [donation, ...others] = await staffDonations(ownSite);
  expect(others).toEqual([]);
  expect(donation).toMatchObject({
    status: "paid",
    name: "Amina Mushi",
    email: "amina@example.org",
    giftAid: { firstName: "Amina", surname: "Mushi", postcode: "SW1A 1AA" },
  });
});

sharedSiteTest.describe("with a mail server on loopback", () => {
  sharedSiteTest.slow();
  sharedSiteTest.use({ allowedConsoleErrors: [/status of 402 \(Payment Required\)/] });
  const running = useSiteWithMailServer("Kilele Village Trust <giving@example.org>");

  sharedSiteTest(
    "a donation with Gift Aid: the thank-you view, the receipt by e-mail, and staff see it",
    async ({ page }) => {
      await page.goto(`${running.site.url}/payment?amount=10.00`);
      const f = donationForm(page);
      await fillDonor(page);
      await f.giftAid.check();
      await f.firstName.fill("Amina");
      await f.surname.fill("Mushi");
      await f.house.fill("Rose Cottage");
      await f.postcode.fill("sw1a 1aa");
      await page.getByLabel("This donation and any I have made in the past four years").check();
      await fillCard(page, "4242 4242 4242 4242");
      await f.pay.click();

      await expect(page).toHaveURL(/\/payment\?amount=10\.00&donation=[0-9a-f-]{36}$/);
      const thanks = page.getByRole("region", { name: "Thank you for your donation!" });
      await expect(
        thanks.getByRole("img", { name: "A green circle with a white tick, surrounded by confetti" }),
      ).toBeVisible();
      await expect(thanks).toContainText("Asante sana – thank you very much.");
      await expect(thanks).toContainText("You gave £10.00, and with Gift Aid it is worth £12.50 to the Trust.");
      await expect(page.getByRole("button", { name: /^Pay now/ })).toHaveCount(0);
      await expect(page.getByText(/Your gift goes straight to work/)).toHaveCount(0);
      await expectNoSeriousA11yViolations(page);
      const donationId = new URL(page.url()).searchParams.get("donation")!;

      await expect.poll(() => running.smtp.sentTo("amina@example.org").length).toBe(1);
      const mail = running.smtp.sentTo("amina@example.org")[0]!;
      expect(mail.from?.text).toContain("giving@example.org");
      expect(mail.subject).toBe("Thank you for your donation of £10.00 to Kilele Village Trust");
      expect(mail.text).toContain(`Your donation reference is ${donationId}.`);
      expect(mail.text).toContain("Kilele Village Trust, registered charity number 1187432");
      expect(mail.text).toContain(
        `you declared: "I want to Gift Aid my donation of £10.00 and any donations I have made in the past 4 years to Kilele Village Trust. ${taxpayerStatement}"`,
      );
      expect(mail.text).toContain("Name: Amina Mushi");
      expect(mail.text).toContain("Home address: Rose Cottage, SW1A 1AA");
      expect(mail.text).toContain("To cancel this declaration");

      // A reload shows the thanks again and records and sends nothing more.
      await page.reload();
      await expect(page.getByRole("heading", { name: "Thank you for your donation!" })).toBeVisible();
      const [donation, ...others] = await staffDonations(running.site);
      expect(others).toEqual([]);
      expect(donation).toMatchObject({
        id: donationId,
        status: "paid",
        amountPence: 1000,
        name: "Amina Mushi",
        email: "amina@example.org",
        giftAid: {
          firstName: "Amina",
          surname: "Mushi",
          houseNameOrNumber: "Rose Cottage",
          postcode: "SW1A 1AA",
          scope: "this-and-past-four-years",
        },
      });
      expect(running.smtp.sentTo("amina@example.org")).toHaveLength(1);
    },
  );

  sharedSiteTest(
    "a declined card says so and keeps the form; a second card gives once, without Gift Aid",
    async ({ page }) => {
      await page.goto(`${running.site.url}/payment`);
      await page.getByRole("link", { name: "Donate £5", exact: true }).click();
      const f = donationForm(page);
      await expect(f.pay).toHaveText("Pay now £5.00");
      await fillDonor(page);
      await fillCard(page, "4000 0000 0000 0002");
      await f.pay.click();
      await expect(page.getByText("Your card was declined.")).toBeVisible();
      await expect(f.name).toHaveValue("Amina Mushi");
      await expect(f.pay).toBeEnabled();
      expect((await staffDonations(running.site)).map((d) => d.status)).toEqual(["pending"]);
      expect(running.smtp.received).toEqual([]);

      await fillCard(page, "4242 4242 4242 4242");
      await f.pay.click();
      const thanks = page.getByRole("region", { name: "Thank you for your donation!" });
      await expect(thanks).toContainText("You gave £5.00.");
      await expect(thanks).not.toContainText("Gift Aid");
      await expect.poll(() => running.smtp.sentTo("amina@example.org").length).toBe(1);
      const [receipt] = running.smtp.sentTo("amina@example.org");
      expect(receipt!.text).toContain("Thank you for your donation of £5.00 to Kilele Village Trust");
      expect(receipt!.text).toContain("Gift Aid: Not declared");
      expect(receipt!.text).not.toContain("Your Gift Aid declaration");
      // The declined attempt was given up when the second began: one gift, one charge.
      expect((await staffDonations(running.site)).map((d) => [d.status, d.amountPence, d.giftAid])).toEqual([
        ["paid", 500, null],
        ["cancelled", 500, null],
      ]);
    },
  );
});

test("a made-up return link thanks nobody, and staff alone may list donations", async ({ page, ownSite }) => {
  await page.goto(`/payment?amount=10.00&donation=${crypto.randomUUID()}`);
  await expect(page.getByText(/We could not find this donation/)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Thank you for your donation!" })).toHaveCount(0);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");

  const anonymous = await page.request.get(`${ownSite.url}/api/admin/donations`);
  expect(anonymous.status()).toBe(401);
  const start = await page.request.post(`${ownSite.url}/api/donations`, {
    data: { amount: "0.50", name: "Amina Mushi", email: "amina@example.org" },
  });
  expect(start.status()).toBe(400);
  expect(await start.json()).toEqual({
    error: "Invalid donation information: please check the details marked below.",
    code: "invalid",
    fields: { amount: "The smallest donation we can take by card is £1.00." },
  });
  expect(await staffDonations(ownSite)).toEqual([]);
});

sharedSiteTest.describe("without JavaScript", () => {
  sharedSiteTest.use({ javaScriptEnabled: false });

  sharedSiteTest(
    "amounts are still chosen and checked, and the card form says it needs JavaScript",
    async ({ page }) => {
      await page.goto("/payment");
      const other = page.getByLabel("Other amount (£)");
      await other.fill("0.5");
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveURL(/\/payment\?amount=0\.5$/);
      await expect(page.getByText("The smallest donation we can take by card is £1.00.")).toBeVisible();
      await expect(other).toHaveValue("0.5");
      await other.fill("12.5");
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveURL(/\/payment\?amount=12\.50$/);
      await expect(page.getByRole("region", { name: "Your donation" })).toContainText("£12.50");
      await expect(page.getByText("Paying by card needs JavaScript")).toBeVisible();
      await expect(page.getByRole("button", { name: "Loading..." })).toBeDisabled();
    },
  );
});
