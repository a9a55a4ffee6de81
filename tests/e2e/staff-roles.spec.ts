import { expect, expectNoSeriousA11yViolations, test, useSiteWithMailServer } from "../support/fixtures";
import { staffAccount } from "../support/site-process";
import type { TestSmtpServer } from "../support/smtp";
import { signIn } from "../support/staff-api";

// Roles and password resets (docs/decisions/071-staff-roles.md, 072-password-reset.md), with a
// real mail server on loopback: a member who forgot their password chooses a new one through the
// e-mailed link; an Owner gives a member a role, changes it, and sends them a reset link.

// Each password is hashed with scrypt at full cost, and each test starts its own site.
test.slow();

// Refusals the tests cause on purpose: a page a role may not open (403), the last Owner (409), a used link (410).
test.use({ allowedConsoleErrors: [/the server responded with a status of (403|409|410)/] });

/** The link in the newest e-mail to this address, once it has arrived; its path. */
async function linkIn(smtp: TestSmtpServer, email: string, count: number, kind: "join" | "reset-password") {
  await expect.poll(() => smtp.sentTo(email).length).toBe(count);
  const mail = smtp.sentTo(email).at(-1)!;
  const link = new RegExp(`(https?://\\S+/admin/${kind}/[\\w-]{43})`).exec(mail.text ?? "")?.[1];
  expect(link, "the link in the e-mail").toBeTruthy();
  return { path: new URL(link!).pathname, mail };
}

test.describe("with a mail server", () => {
  const running = useSiteWithMailServer("Kilele Village Trust <hello@example.org>");

  test("a member who forgot their password gets a link by e-mail, chooses a new one and lands signed in; other devices are signed out", async ({
    page,
    browser,
  }) => {
    const { site, smtp } = running;
    // Signed in on another device before: that session ends with the reset.
    const laptop = await browser.newContext({ baseURL: site.url });
    await signIn(laptop, { url: site.url });

    await page.goto(`${site.url}/admin/sign-in`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page.getByRole("heading", { name: "Forgot your password?", level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    const answer = "If there is a staff account for that address, we have sent it a link to choose a new password.";
    // An address with no account gets the same answer, and no e-mail.
    await page.getByLabel("Email").fill("nobody@example.org");
    await page.getByRole("button", { name: "Send me a link" }).click();
    await expect(page.getByRole("status")).toHaveText(answer);
    await page.goto(`${site.url}/admin/forgot-password`);
    await page.getByLabel("Email").fill(staffAccount.email);
    await page.getByRole("button", { name: "Send me a link" }).click();
    await expect(page.getByRole("status")).toHaveText(answer);

    const { path, mail } = await linkIn(smtp, staffAccount.email, 1, "reset-password");
    expect(mail.subject).toBe("Choose a new password for Kilele Village Trust's website");
    expect(mail.text).toContain("If you did not ask for this, you can ignore this e-mail");
    expect(smtp.sentTo("nobody@example.org")).toHaveLength(0);

    await page.goto(`${site.url}${path}`);
    await expect(page.getByRole("heading", { name: "Choose a new password", level: 1 })).toBeVisible();
    await expect(page.getByRole("main")).toContainText(staffAccount.email);
    await expectNoSeriousA11yViolations(page);
    const newPassword = "a password chosen after forgetting";
    await page.getByLabel("New password").fill(newPassword);
    await page.getByLabel("Repeat the password").fill(newPassword);
    await page.getByRole("button", { name: "Choose this password and sign in" }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByText(`signed in as ${staffAccount.email}`)).toBeVisible();

    expect((await laptop.request.get("/api/admin/events")).status(), "the other device's session").toBe(401);
    expect((await laptop.request.post("/api/admin/session", { data: staffAccount })).status(), "the old password").toBe(
      401,
    );
    await signIn(laptop, { url: site.url, account: { email: staffAccount.email, password: newPassword } });
    await laptop.close();

    // Used once: the link says so, and offers a new one.
    await page.goto(`${site.url}${path}`);
    await expect(page.getByRole("heading", { name: "This link no longer works", level: 1 })).toBeVisible();
    await expect(page.getByRole("link", { name: "Ask for a new link" })).toBeVisible();

    await page.goto(`${site.url}/admin/audit`);
    const rows = page.locator("tbody").getByRole("row");
    await expect(rows.nth(0)).toContainText("Chose a new password through a reset link");
    await expect(rows.nth(1)).toContainText("Sent a password reset link");
  });

  test("an Owner invites a Door member, who works only at check-in; the Owner changes their role and sends them a reset link", async ({
    page,
    browser,
  }) => {
    const { site, smtp } = running;
    const door = { email: "juma@example.org", password: "Juma's own long password" };
    await signIn(page, { url: site.url });
    await page.goto(`${site.url}/admin/staff`);
    await expect(page.getByRole("row", { name: new RegExp(staffAccount.email) })).toContainText("Owner");

    // Invited as Door.
    await page.getByLabel("Email", { exact: true }).fill(door.email);
    await page.getByLabel("Role", { exact: true }).selectOption("door");
    await page.getByRole("button", { name: "Add a member" }).click();
    await expect(page.getByRole("status")).toContainText(`An invitation was sent to ${door.email}.`);
    await expect(page.getByRole("region", { name: "Table of invitations waiting" })).toContainText("Door");
    const { path } = await linkIn(smtp, door.email, 1, "join");

    // They join, and land at check-in, the one place they may work.
    const theirs = await browser.newContext({ baseURL: site.url });
    const doorPage = await theirs.newPage();
    await doorPage.goto(path);
    await doorPage.getByLabel("New password").fill(door.password);
    await doorPage.getByLabel("Repeat the password").fill(door.password);
    await doorPage.getByRole("button", { name: "Choose this password and sign in" }).click();
    await expect(doorPage).toHaveURL(/\/admin\/check-in$/);
    // Anywhere else: a page that says which roles may, and the way back to check-in.
    const refused = await doorPage.goto("/admin/donations");
    expect(refused?.status()).toBe(403);
    await expect(doorPage.getByRole("heading", { name: "You can't open this page", level: 1 })).toBeVisible();
    await expect(doorPage.getByRole("main")).toContainText(
      "This page is for the Owner or Treasurer roles. Your role is Door: check-in at the door only.",
    );
    await expectNoSeriousA11yViolations(doorPage);
    expect((await doorPage.request.get("/api/admin/donations")).status()).toBe(403);
    await doorPage.getByRole("link", { name: "Go to check-in" }).click();
    await expect(doorPage).toHaveURL(/\/admin\/check-in$/);

    // The Owner makes them Treasurer: it holds from their next click.
    await page.reload();
    const row = page.getByRole("row", { name: new RegExp(door.email) });
    await expect(row.getByLabel(`Role of ${door.email}`, { exact: true })).toHaveValue("door");
    await row.getByLabel(`Role of ${door.email}`, { exact: true }).selectOption("treasurer");
    await row.getByRole("button", { name: `Change the role of ${door.email}` }).click();
    await expect(page.getByRole("status")).toContainText(`${door.email} is now Treasurer (was Door).`);
    await expectNoSeriousA11yViolations(page);
    const allowed = await doorPage.goto("/admin/donations");
    expect(allowed?.status()).toBe(200);
    expect((await doorPage.goto("/admin/events"))?.status()).toBe(403);

    // The last Owner keeps the role.
    const mine = page.getByRole("row", { name: new RegExp(staffAccount.email) });
    await mine.getByLabel(`Role of ${staffAccount.email}`, { exact: true }).selectOption("events");
    await mine.getByRole("button", { name: `Change the role of ${staffAccount.email}` }).click();
    await expect(page.getByRole("alert")).toContainText(
      "This is the last Owner, so their role cannot be changed. Make another member an Owner first.",
    );

    // A reset link, sent by the Owner.
    await page
      .getByRole("row", { name: new RegExp(door.email) })
      .getByRole("button", { name: `Send a password reset link to ${door.email}` })
      .click();
    await expect(page.getByRole("status")).toContainText(`A link to choose a new password was sent to ${door.email}.`);
    const { mail } = await linkIn(smtp, door.email, 2, "reset-password");
    expect(mail.text).toContain(`${staffAccount.email} has sent you a link to choose a new password`);

    await page.goto(`${site.url}/admin/audit`);
    const log = page.locator("tbody");
    await expect(log.getByRole("row").nth(0)).toContainText("Sent a password reset link");
    await expect(log.getByRole("row").nth(1)).toContainText(`Changed ${door.email}'s role from Door to Treasurer`);
    await theirs.close();
  });
});
