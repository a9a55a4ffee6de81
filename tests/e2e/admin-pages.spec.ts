import fs from "node:fs/promises";
import { join as joinPath } from "node:path";
import { simpleParser } from "mailparser";
import { expect, expectNoSeriousA11yViolations, testWithOwnSite as test } from "../support/fixtures";
import { routeTable } from "../support/route-table";
import { giveDonation, londonDaysAgo } from "../support/donations";
import { buyTickets } from "../support/bookings";
import { staffAccount } from "../support/site-process";
import { createEvent, signIn, staffApi } from "../support/staff-api";

// Every staff page, taken from the route table so a new one cannot be missed, on a 390 px phone and
// a 1280 px laptop: no serious accessibility fault, and nothing wider than the screen but a table
// that scrolls.

/** Each staff page's path (a page route has a default export, i.e. a .tsx file). */
const staffPages = [
  ...new Set(routeTable.filter((route) => route.file.endsWith(".tsx")).map((route) => route.pattern)),
].filter((path) => /^admin(\/|$)/.test(path));

// Every staff page, with axe on each, once per width: about 3 minutes a width on two busy cores.
test.describe.configure({ mode: "parallel", timeout: 300_000 });

for (const width of [390, 1280]) {
  test(`every staff page works at ${width} px with no serious accessibility fault`, async ({ page, ownSite }) => {
    expect(staffPages).toEqual(expect.arrayContaining(["admin", "admin/events", "admin/check-in", "admin/events/:id"]));
    const api = await staffApi(ownSite);
    const event = await createEvent(api, { name: "Quiz Night" });
    // A real record for each kind of parameter a staff page takes (an event's id unless named here).
    // The page editor's pages: the home page, the largest form.
    const sample: Record<string, string> = { id: event.id, name: "home" };
    // A paid donation with Gift Aid, claimed: its page and its claim's page.
    sample.donationId = await giveDonation(api, {
      amount: "25",
      name: "Amina Mushi",
      email: "amina@example.org",
      declaration: { firstName: "Amina", surname: "Mushi", house: "1", postcode: "M1 1AE", scope: "this-donation" },
    });
    const claim = await api.post("/api/admin/gift-aid/claims", {
      data: { claimedOn: londonDaysAgo(0).iso, donationIds: [sample.donationId] },
    });
    expect(claim.status(), await claim.text()).toBe(201);
    sample.claimId = ((await claim.json()) as { claimId: string }).claimId;
    // A monthly gift, paid with the offline test card: its staff page.
    const gift = await api.post("/api/regular-gifts", {
      data: { amount: "10.00", dayOfMonth: "15", name: "Bea Tanner", email: "bea@example.org", giftAid: false },
      headers: { Origin: ownSite.url },
    });
    expect(gift.status(), await gift.text()).toBe(201);
    const started = (await gift.json()) as { regularGiftId: string; clientSecret: string };
    const paid = await api.post("/api/payments/offline/confirm", {
      data: { ...started, card: { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" } },
      headers: { Origin: ownSite.url },
    });
    expect(paid.status(), await paid.text()).toBe(200);
    sample.giftId = started.regularGiftId;
    // A booking of another event, so that the event's own pages stay as they were (its door list, printed, is not for a phone).
    const booked = await createEvent(api, { name: "Barn Dance" });
    sample.bookingRef = await buyTickets(api, booked.id, {
      name: "Neema Mollel",
      email: "neema@example.org",
      quantity: 2,
    });
    // An invitation (its link's token, from the e-mail the site wrote to its outbox folder) and an e-mail's id.
    await signIn(page);
    const invited = await page.request.post("/admin/staff", { form: { intent: "invite", email: "new@example.org" } });
    expect(invited.status()).toBe(200);
    const outboxDir = joinPath(ownSite.dataDir, "outbox");
    // The invitation's file, found by its address: the donation's and the booking's e-mails are in the
    // folder too, in no set order (the directory's), and the outbox worker may be the one writing it.
    const invitationFile = async () =>
      (await fs.readdir(outboxDir)).find((name) => name.endsWith("-new@example.org.eml"));
    await expect.poll(invitationFile).toBeDefined();
    const invitation = await simpleParser(await fs.readFile(joinPath(outboxDir, (await invitationFile())!)));
    sample.token = /\/admin\/join\/([\w-]+)/.exec(invitation.text ?? "")![1]!;
    // A password reset link for the staff account, from its e-mail the same way.
    const asked = await page.request.post("/admin/forgot-password", { form: { email: staffAccount.email } });
    expect(asked.status()).toBe(200);
    const resetFile = async () =>
      (await fs.readdir(outboxDir)).find((name) => name.endsWith(`-${staffAccount.email}.eml`));
    await expect.poll(resetFile).toBeDefined();
    const reset = await simpleParser(await fs.readFile(joinPath(outboxDir, (await resetFile())!)));
    const resetToken = /\/admin\/reset-password\/([\w-]+)/.exec(reset.text ?? "")![1]!;
    // A promo code, made on its form: its page.
    const code = await page.request.post("/admin/codes/new", {
      form: { code: "WALK10", eventId: "", kind: "percent", percentOff: "10" },
    });
    expect(code.status()).toBe(200);
    sample.codeId = new URL(code.url()).pathname.split("/").pop()!;
    // A message to the other event's booking (decision 095): its page, under that event.
    const message = await page.request.post(`/admin/events/${booked.id}/messages/new`, {
      form: {
        intent: "send",
        messageId: crypto.randomUUID(),
        audience: "all",
        subject: "Parking",
        body: "Park behind.",
      },
    });
    expect(message.status()).toBe(200);
    sample.messageId = new URL(message.url()).pathname.split("/").pop()!;
    await page.goto("/admin/emails");
    sample.emailId = (await page
      .getByRole("link", { name: /^Preview/ })
      .first()
      .getAttribute("href"))!
      .split("/")
      .pop()!;
    await page.setViewportSize({ width, height: 844 });
    for (const path of staffPages) {
      if (path === "admin/sign-in") {
        await page.goto("/admin/sign-in");
      } else {
        if (!(await page.context().cookies()).some((c) => c.name === "kt_staff")) {
          await signIn(page);
        }
        const params =
          path === "admin/reset-password/:token"
            ? { ...sample, token: resetToken }
            : path === "admin/events/:id/messages/:messageId"
              ? { ...sample, id: booked.id }
              : sample;
        const response = await page.goto(`/${path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? event.id)}`);
        expect(response?.status(), path).toBe(200);
      }
      await expect(page.locator("main h1"), path).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      // Wide tables scroll inside their own box; the page itself never scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(width);
    }
  });
}
