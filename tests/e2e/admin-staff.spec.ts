import type { Browser, Page } from "@playwright/test";
import { expect, expectNoSeriousA11yViolations, test, useSiteWithMailServer } from "../support/fixtures";
import { hydrated } from "../support/hydration";
import { staffAccount } from "../support/site-process";
import type { TestSmtpServer } from "../support/smtp";
import { signIn } from "../support/staff-api";

// The staff page: a member invited by e-mail (a real mail server on loopback) opens the link in a
// browser of their own, chooses a password and lands signed in; the link then no longer works.
// Removing a member (asked first, never the last), changing your password and signing out of every
// device (Your account); each written in the audit log. Roles and password resets:
// tests/e2e/staff-roles.spec.ts.

// Refusals the tests cause on purpose: a used link (410), the last member (409), a wrong password (400, 401).
// Each password is hashed with scrypt at full cost, and each test starts its own site: slow on a shared machine.
test.slow();

test.use({ allowedConsoleErrors: [/the server responded with a status of (401|409|410)/] });

const newcomer = { email: "nia@example.org", password: "Nia's own long password" };

/** Invites an address from the staff page and answers the link's path from the e-mail that arrives. */
async function invite(page: Page, smtp: TestSmtpServer, email: string) {
  const before = smtp.sentTo(email).length;
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Add a member" }).click();
  await expect(page.getByRole("status")).toContainText(`An invitation was sent to ${email}.`);
  await expect.poll(() => smtp.sentTo(email).length).toBe(before + 1);
  const mail = smtp.sentTo(email)[before]!;
  expect(mail.to && "text" in mail.to ? mail.to.text : "").toBe(email);
  expect(mail.subject).toBe("Join the staff of Kilele Village Trust's website");
  expect(mail.html).toContain("Choose your password and sign in");
  const link = /(https?:\/\/\S+\/admin\/join\/[\w-]{43})/.exec(mail.text ?? "")?.[1];
  expect(link, "the link in the e-mail").toBeTruthy();
  return new URL(link!).pathname;
}

/** A browser of the newcomer's own: opens the link, chooses a password, lands on the staff home. */
async function join(browser: Browser, url: string, path: string, password: string) {
  const context = await browser.newContext({ baseURL: url });
  const page = await context.newPage();
  await page.goto(path);
  await expect(page.getByRole("heading", { name: "Join the staff", level: 1 })).toBeVisible();
  await expect(page.getByRole("main")).toContainText(newcomer.email);
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel("New password").fill(password);
  await page.getByLabel("Repeat the password").fill(`${password}?`);
  await page.getByRole("button", { name: "Choose this password and sign in" }).click();
  await expect(page.getByText("The two passwords are not the same.")).toBeVisible();
  await expect(page.getByLabel("Repeat the password")).toHaveAttribute("aria-invalid", "true");
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel("New password").fill(password);
  await page.getByLabel("Repeat the password").fill(password);
  await page.getByRole("button", { name: "Choose this password and sign in" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText(`signed in as ${newcomer.email}`)).toBeVisible();
  return { context, page };
}

test.describe("with a mail server", () => {
  const running = useSiteWithMailServer("Kilele Village Trust <hello@example.org>");

  test("a member is invited by e-mail, chooses a password through the link, lands signed in and is listed; the link then works no more", async ({
    page,
    browser,
  }) => {
    const { site, smtp } = running;
    await signIn(page, { url: site.url });
    await page.goto(`${site.url}/admin`);
    await page.getByRole("navigation", { name: "Staff pages" }).getByRole("link", { name: "Staff" }).click();
    await expect(page.getByRole("heading", { name: "Staff", level: 1 })).toBeVisible();
    const members = page.getByRole("region", { name: "Table of members of staff" }).locator("tbody tr");
    await expect(members).toHaveCount(1);
    await expect(members.first()).toContainText(`${staffAccount.email} (you)`);
    await expectNoSeriousA11yViolations(page);

    // A bad address and an existing member are refused beside the field; nothing is sent.
    await page.getByLabel("Email", { exact: true }).fill(staffAccount.email);
    await page.getByRole("button", { name: "Add a member" }).click();
    await expect(page.getByText(`${staffAccount.email} is already a member of staff.`)).toBeVisible();
    await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expectNoSeriousA11yViolations(page);

    const path = await invite(page, smtp, newcomer.email);
    const waiting = page.getByRole("region", { name: "Table of invitations waiting" }).locator("tbody tr");
    await expect(waiting).toHaveCount(1);
    await expect(waiting.first()).toContainText(newcomer.email);
    await expect(waiting.first()).toContainText(staffAccount.email);
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue("");

    // Staff's view of the outbox shows the link's mark, never the link that signs in (decision 054).
    await page.goto(`${site.url}/admin/emails`);
    await page.getByRole("link", { name: "Preview: Join the staff of Kilele Village Trust's website" }).click();
    const text = page.getByRole("region", { name: "The e-mail's text" });
    await expect(text).toContainText("/admin/join/••••••••");
    await expect(text).not.toContainText(path);
    expect(await (await page.request.get(`${page.url()}/html`)).text()).not.toContain(path);
    await page.goto(`${site.url}/admin/staff`);

    const { context, page: theirs } = await join(browser, site.url, path, newcomer.password);
    // Used once: the same link is refused, and says what to do.
    await theirs.goto(path);
    await expect(theirs.getByRole("heading", { name: "This link no longer works", level: 1 })).toBeVisible();
    await expect(theirs.getByRole("main")).toContainText(
      "This link has expired or has already been used. Ask a member of staff to invite you again.",
    );
    await expectNoSeriousA11yViolations(theirs);
    await context.close();

    // On a phone, the list shows them with their last sign-in, and no invitation waits.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(members).toHaveCount(2);
    await expect(page.getByRole("row", { name: new RegExp(newcomer.email) })).toContainText(
      /\w{3} \d{1,2} \w{3,4} \d{4}, \d\d:\d\d\s*\w{3} \d{1,2} \w{3,4} \d{4}, \d\d:\d\d/,
    );
    await expect(page.getByText("No invitation is waiting to be used.")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // An invitation can be cancelled, asked first; its link then works no more.
    const second = await invite(page, smtp, "omari@example.org");
    // The confirming buttons work once the scripts have taken over the page.
    const cancel = page.getByRole("button", { name: "Cancel the invitation to omari@example.org" });
    await hydrated(cancel);
    await cancel.click();
    const dialog = page.getByRole("alertdialog", { name: "Cancel this invitation?" });
    await expect(dialog.getByRole("button", { name: "Keep it" })).toBeFocused();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole("button", { name: "Cancel the invitation" }).click();
    await expect(page.getByRole("status")).toHaveText("The invitation is cancelled; its link no longer works.");
    await page.goto(`${site.url}${second}`);
    await expect(page.getByRole("heading", { name: "This link no longer works", level: 1 })).toBeVisible();

    await page.goto(`${site.url}/admin/audit`);
    const log = page.locator("tbody");
    await expect(log.getByRole("row").nth(0)).toContainText("Cancelled a staff invitation");
    await expect(log.getByRole("row").nth(1)).toContainText("Invited a member of staff");
    await expect(log.getByRole("row").nth(2)).toContainText("Joined the staff");
    await expect(log.getByRole("row").nth(2)).toContainText(newcomer.email);
    await expect(log.getByRole("row").nth(3)).toContainText("Invited a member of staff");
  });

  test("a member is removed (asked first, never the last); a password is changed; and every device is signed out", async ({
    page,
    browser,
  }) => {
    const { site, smtp } = running;
    await signIn(page, { url: site.url });
    await page.goto(`${site.url}/admin/staff`);

    // The only member cannot be removed. The confirming buttons work once the scripts have taken
    // over the page.
    const removeMe = page.getByRole("button", { name: `Remove ${staffAccount.email}` });
    await hydrated(removeMe);
    await removeMe.click();
    await page
      .getByRole("alertdialog", { name: "Remove this member of staff?" })
      .getByRole("button", { name: "Remove" })
      .click();
    await expect(page.getByRole("alert")).toContainText("This is the last member of staff, so they cannot be removed.");

    const { context, page: theirs } = await join(
      browser,
      site.url,
      await invite(page, smtp, newcomer.email),
      newcomer.password,
    );
    await page.reload();
    const removeThem = page.getByRole("button", { name: `Remove ${newcomer.email}` });
    await hydrated(removeThem);
    await removeThem.click();
    const dialog = page.getByRole("alertdialog", { name: "Remove this member of staff?" });
    await expect(dialog).toContainText(`${newcomer.email} will no longer be able to sign in`);
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole("button", { name: "Keep them" }).click();
    await expect(page.getByRole("row", { name: new RegExp(newcomer.email) })).toBeVisible();
    await page.getByRole("button", { name: `Remove ${newcomer.email}` }).click();
    await dialog.getByRole("button", { name: "Remove" }).click();
    await expect(page.getByRole("status")).toHaveText("The member of staff is removed, and signed out everywhere.");
    await expect(page.getByRole("row", { name: new RegExp(newcomer.email) })).toHaveCount(0);
    // Their session ended at once.
    await theirs.goto("/admin/staff");
    await expect(theirs).toHaveURL(/\/admin\/sign-in\?next=%2Fadmin%2Fstaff$/);
    await context.close();

    // Change your password (on Your account, reached from the staff bar): the current one is
    // checked; afterwards the old one fails, this session stays.
    await page.getByRole("link", { name: "Your account" }).first().click();
    await expect(page.getByRole("heading", { name: "Your account", level: 1 })).toBeVisible();
    await expect(page.getByRole("main")).toContainText("Your role is Owner");
    const other = await browser.newContext({ baseURL: site.url });
    await signIn(await other.newPage(), { url: site.url });
    const newPassword = "a brand new staff password";
    await page.getByLabel("Current password").fill("not my password at all");
    await page.getByLabel("New password").fill(newPassword);
    await page.getByLabel("Repeat the password").fill(newPassword);
    await page.getByRole("button", { name: "Change your password" }).click();
    await expect(page.getByText("That is not your current password.")).toBeVisible();
    await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel("Current password").fill(staffAccount.password);
    await page.getByLabel("New password").fill(newPassword);
    await page.getByLabel("Repeat the password").fill(newPassword);
    await page.getByRole("button", { name: "Change your password" }).click();
    await expect(page.getByRole("status")).toHaveText(
      "Your password is changed. You are still signed in here; every other device is signed out.",
    );
    expect((await other.request.get("/api/admin/events")).status(), "the other device's session").toBe(401);
    const old = await other.request.post("/api/admin/session", { data: staffAccount });
    expect(old.status(), "the old password").toBe(401);
    await signIn(await other.newPage(), {
      url: site.url,
      account: { email: staffAccount.email, password: newPassword },
    });
    await page.reload();
    await expect(page.getByRole("heading", { name: "Your account", level: 1 })).toBeVisible();

    // Sign out of every device: this one goes to sign-in, and the other's session ends too.
    await page.getByRole("button", { name: "Sign out of every device" }).click();
    await expect(page).toHaveURL(/\/admin\/sign-in$/);
    expect((await other.request.get("/api/admin/events")).status()).toBe(401);
    await page.goto(`${site.url}/admin`);
    await expect(page).toHaveURL(/\/admin\/sign-in\?next=%2Fadmin$/);
    await other.close();

    await signIn(page, { url: site.url, account: { email: staffAccount.email, password: newPassword } });
    await page.goto(`${site.url}/admin/audit`);
    const rows = page.locator("tbody").getByRole("row");
    await expect(rows.nth(0)).toContainText("Signed out of every device");
    await expect(rows.nth(1)).toContainText("Changed their password");
    await expect(rows.nth(2)).toContainText("Removed a member of staff");
  });
});
