import { expect, expectNoSeriousA11yViolations, test, testWithOwnSite } from "../support/fixtures";
import { readContent } from "../support/content";
import { signIn } from "../support/staff-api";
import { hydrated } from "../support/hydration";

const site = readContent("site");
const navLinks = [
  ["Home", "/"],
  ["Fundraising events", "/fundraising"],
  ["About", "/about"],
  ["Volunteering", "/volunteering"],
  ["Contact", "/contact"],
] as const;

test("the navigation bar links every page and underlines the current one", async ({ page }) => {
  await page.goto("/about");
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const [name, href] of navLinks) {
    await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }
  const current = nav.getByRole("link", { name: "About", exact: true });
  await expect(current).toHaveAttribute("aria-current", "page");
  await expect(current).toHaveCSS("text-decoration-line", "underline");
  await expect(nav.getByRole("link", { name: "Home", exact: true })).toHaveCSS("text-decoration-line", "none");

  await nav.getByRole("link", { name: "Contact", exact: true }).click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(nav.getByRole("link", { name: "Contact", exact: true })).toHaveAttribute("aria-current", "page");
});

test("each navigation starts at the top of the page", async ({ page }) => {
  await page.goto("/about");
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
  await page
    .getByRole("contentinfo")
    .getByRole("link", { name: /Registered charity/ })
    .scrollIntoViewIfNeeded();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Volunteering" }).click();
  await expect(page).toHaveURL(/\/volunteering$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

testWithOwnSite(
  "Donate goes to the site's own donation page, and to the charity's external page in a new tab once staff set one",
  async ({ page, context, ownSite }) => {
    // By default: this site's own page, in the same tab, from every page.
    for (const path of ["/", "/about", "/fundraising"]) {
      await page.goto(path);
      const donate = page.getByRole("banner").getByRole("link", { name: "Donate", exact: true });
      await expect(donate).toHaveAttribute("href", "/payment");
      await expect(donate).not.toHaveAttribute("target");
    }
    await page.getByRole("banner").getByRole("link", { name: "Donate", exact: true }).click();
    await expect(page).toHaveURL(/\/payment$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Donate");
    expect(context.pages()).toHaveLength(1);

    // Staff name an external page on Settings: a bad address is refused with a message and changes nothing.
    await signIn(page, { url: ownSite.url });
    await page.goto("/admin/settings");
    const field = page.getByLabel("External donation page");
    await expect(field).toHaveValue("");
    await field.fill("http://donate.example.net/kilele");
    await page.getByRole("button", { name: "Save the Donate button" }).click();
    await expect(page.getByRole("alert")).toContainText("starting with https://");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expectNoSeriousA11yViolations(page);
    await page.goto("/");
    await expect(page.getByRole("banner").getByRole("link", { name: "Donate", exact: true })).toHaveAttribute(
      "href",
      "/payment",
    );

    const external = "https://give.example.net/kilele-trust";
    await context.route(external, (route) => route.fulfill({ body: "<title>Give</title>", contentType: "text/html" }));
    await page.goto("/admin/settings");
    await page.getByLabel("External donation page").fill(external);
    await page.getByRole("button", { name: "Save the Donate button" }).click();
    await expect(page.getByRole("status")).toHaveText("The Donate button is saved.");
    await page.reload();
    await expect(page.getByLabel("External donation page")).toHaveValue(external);

    await page.goto("/contact");
    const donate = page.getByRole("banner").getByRole("link", { name: /^Donate/ });
    await expect(donate).toHaveAccessibleName("Donate (opens in a new tab)");
    await expect(donate).toHaveAttribute("target", "_blank");
    await expect(donate).toHaveAttribute("rel", /noopener/);
    const [tab] = await Promise.all([context.waitForEvent("page"), donate.click()]);
    await expect(tab).toHaveURL(external);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await tab.close();
    await expect(page).toHaveURL(/\/contact$/);

    // Emptied again: back to the site's own page.
    await page.goto("/admin/settings");
    await page.getByLabel("External donation page").fill("");
    await page.getByRole("button", { name: "Save the Donate button" }).click();
    await expect(page.getByRole("status")).toHaveText("The Donate button is saved.");
    await page.goto("/");
    await expect(page.getByRole("banner").getByRole("link", { name: "Donate", exact: true })).toHaveAttribute(
      "href",
      "/payment",
    );
    await page.goto("/admin/audit");
    await expect(page.locator("tbody")).toContainText("Changed the settings");
  },
);

test("the footer has Find us, the policy, the social link, the credit and the charity number", async ({
  page,
  request,
}) => {
  await page.goto("/contact");
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("heading", { name: "Find us" })).toBeVisible();
  await expect(footer.getByRole("link", { name: site.email })).toHaveAttribute("href", `mailto:${site.email}`);
  await expect(footer.getByRole("link", { name: /Privacy policy/ })).toHaveAttribute("href", site.privacyPolicyUrl);
  await expect(footer.getByRole("link", { name: site.socialLabel })).toHaveAttribute("href", site.socialUrl);
  await expect(footer.getByRole("link", { name: site.builderCredit.name })).toHaveAttribute(
    "href",
    site.builderCredit.url,
  );
  await expect(
    footer.getByRole("link", { name: `Registered charity number ${site.registrationNumber}` }),
  ).toHaveAttribute("href", "/mock-event");
  const pdf = await request.get(site.privacyPolicyUrl);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });

  test("the burger menu opens, closes on an outside tap and on Escape, and works by keyboard", async ({ page }) => {
    await page.goto("/");
    const burger = page.getByRole("button", { name: "Menu" });
    const links = page.locator("#nav-links");
    await expect(burger).toHaveAttribute("aria-expanded", "false");
    await expect(links).toBeHidden();

    await hydrated(burger); // The menu opens once the scripts have taken over the page.
    await burger.click();
    await expect(burger).toHaveAttribute("aria-expanded", "true");
    await expect(links.getByRole("link", { name: "About" })).toBeVisible();

    await page.getByRole("heading", { level: 1 }).click();
    await expect(links).toBeHidden();
    await expect(burger).toHaveAttribute("aria-expanded", "false");

    // By keyboard: open with Enter, Tab into the links, Escape closes and returns focus to the burger.
    await burger.focus();
    await page.keyboard.press("Enter");
    await expect(links).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(links.getByRole("link", { name: "Home" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(links).toBeHidden();
    await expect(burger).toBeFocused();

    // Following a link closes the menu on the new page.
    await burger.click();
    await links.getByRole("link", { name: "Volunteering" }).click();
    await expect(page).toHaveURL(/\/volunteering$/);
    await expect(links).toBeHidden();
  });
});
