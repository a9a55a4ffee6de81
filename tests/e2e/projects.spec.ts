import { expect, expectNoSeriousA11yViolations, test } from "../support/fixtures";
import { readContent } from "../support/content";
import { hydrated } from "../support/hydration";

const home = readContent("home");
const active = home.activeProjects;
const comingSoon = active.find((p) => p.comingSoon)!;
const withGallery = [...active, ...home.previousProjects].find((p) => p.testimonial && p.galleryImages.length > 0)!;

test("Show more adds three projects at a time, Hide projects goes back to four", async ({ page }) => {
  await page.goto("/");
  const section = page.locator("#active-projects");
  const cards = section.locator(".project-card:visible");
  await expect(cards).toHaveCount(4);
  await hydrated(section.getByRole("button", { name: "Show more" }));
  const expected = [4];
  let shown = 4;
  while (shown < active.length) {
    await section.getByRole("button", { name: "Show more" }).click();
    shown = Math.min(shown + 3, active.length);
    expected.push(shown);
    await expect(cards).toHaveCount(shown);
  }
  await expect(section.getByRole("button", { name: "Show more" })).toHaveCount(0);
  await section.getByRole("button", { name: "Hide projects" }).click();
  await expect(cards).toHaveCount(4);
  await expect(section.getByRole("button", { name: "Show more" })).toBeVisible();
  expect(expected.length).toBeGreaterThan(1);
});

test("a list of four or fewer has no buttons", async ({ page }) => {
  await page.goto("/");
  const previous = page.locator("#previous-projects");
  await expect(previous.locator(".project-card")).toHaveCount(home.previousProjects.length);
  await expect(previous.getByRole("button")).toHaveCount(0);
});

test("a coming-soon project is labelled and its picture dimmed", async ({ page }) => {
  await page.goto("/");
  const section = page.locator("#active-projects");
  while (await section.getByRole("button", { name: "Show more" }).isVisible()) {
    await section.getByRole("button", { name: "Show more" }).click();
  }
  const card = section.locator(".project-card", { hasText: comingSoon.title });
  await expect(card.getByText("Coming Soon", { exact: true })).toBeVisible();
  const opacity = await card.locator("img").evaluate((img) => Number(getComputedStyle(img).opacity));
  expect(opacity).toBeLessThan(1);
  const other = section.locator(".project-card", { hasText: active.find((p) => !p.comingSoon)!.title });
  await expect(other.getByText("Coming Soon")).toHaveCount(0);
});

test("a project opens on its own page, which survives a reload and a shared link", async ({ page }) => {
  await page.goto("/");
  const section =
    withGallery.comingSoon || active.includes(withGallery)
      ? page.locator("#active-projects")
      : page.locator("#previous-projects");
  while (await section.getByRole("button", { name: "Show more" }).isVisible()) {
    await section.getByRole("button", { name: "Show more" }).click();
  }
  await section.getByRole("link", { name: withGallery.title }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${withGallery.slug}$`));
  await expect(page).toHaveTitle(`Project - ${withGallery.title}`);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

  const check = async () => {
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(withGallery.title);
    await expect(page.getByRole("img", { name: withGallery.imageBanner.alt }).first()).toBeVisible();
    await expect(page.getByText(withGallery.col1Text)).toBeVisible();
    await expect(page.getByText(withGallery.col2Text)).toBeVisible();
    await expect(page.getByText(withGallery.testimonial!.testimonial)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Gallery" })).toBeVisible();
    for (const item of withGallery.galleryImages) await expect(page.getByText(item.description)).toBeVisible();
  };
  await check();
  await page.reload();
  await check();
  await expectNoSeriousA11yViolations(page);
});

test("every project's page offers a way to give, which leads to the donation form for that amount", async ({
  page,
}) => {
  const presets = readContent("payment").presetAmounts;
  for (const project of [active[0]!, comingSoon, home.previousProjects[0]!]) {
    await page.goto(`/project/${project.slug}`);
    const give = page.getByRole("region", { name: "Give to Kilele" });
    await expect(give).toBeVisible();
    for (const pounds of presets) {
      await expect(give.getByRole("link", { name: `Donate £${pounds}`, exact: true })).toHaveAttribute(
        "href",
        `/payment?amount=${pounds}.00`,
      );
    }
  }
  await expectNoSeriousA11yViolations(page);
  const give = page.getByRole("region", { name: "Give to Kilele" });
  await give.getByLabel("Other amount (£)").fill("12.50");
  await give.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/payment\?amount=12\.50$/);
  await expect(page.getByRole("heading", { name: "Your donation" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("£12.50");
});

test("the coming-soon project's page says so", async ({ page }) => {
  await page.goto(`/project/${comingSoon.slug}`);
  await expect(page.getByRole("main").getByText("Coming Soon", { exact: true })).toBeVisible();
});

test("an unknown project is a 404 page, and a bare /project goes to the list", async ({ page, request }) => {
  expect((await request.get("/project/no-such-project")).status()).toBe(404);
  await page.goto("/project/no-such-project");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  await page.goto("/project");
  await expect(page).toHaveURL(/\/#active-projects$/);
  await page.goto(`/project?slug=${withGallery.slug}`);
  await expect(page).toHaveURL(new RegExp(`/project/${withGallery.slug}$`));
});
