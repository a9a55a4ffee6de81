import fs from "node:fs";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { fallbackWidth, imageUrl } from "../../app/lib/images";
import { expect, expectNoSeriousA11yViolations, testWithOwnSite as test } from "../support/fixtures";
import { staffAccount } from "../support/site-process";
import { signIn } from "../support/staff-api";

// Staff edit the pages' words and pictures at /admin/pages (docs/decisions/032-the-page-editor.md):
// a form drawn from each page's schema; Publish makes it what visitors see, a draft does not; a
// mistake is refused beside its field; projects, pictures and people lists; history and restore.

test.slow(); // a site of its own per test, and pictures rendered on two busy cores

/** What a visitor (no staff cookie) sees at a path: the page's text. */
async function visitorSees(page: Page, path: string) {
  const response = await page.context().browser()!.newContext({ baseURL: page.url() });
  const visitor = await response.newPage();
  await visitor.goto(path);
  const text = await visitor.locator("main").innerText();
  await response.close();
  return text;
}

test("the volunteering heading: a draft is not shown, Publish shows it, a mistake is refused, and an earlier version is restored", async ({
  page,
}) => {
  await signIn(page);
  await page.goto("/admin");
  await page.getByRole("link", { name: "Pages" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Pages" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page
    .getByRole("region", { name: "The pages" })
    .getByRole("link", { name: "Volunteering", exact: true })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit Volunteering" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  const heading = page.getByLabel("Heading above the sign-up form");
  await expect(heading).toHaveValue("Join us in 2025");

  // Left empty: refused beside the field, summarised at the top, nothing published.
  await heading.fill("");
  await page.getByRole("button", { name: "Publish" }).click();
  const message = page.locator("#field-formTitle-error");
  await expect(message).toHaveText("Heading above the sign-up form must not be left empty.");
  await expect(heading).toHaveAttribute("aria-invalid", "true");
  await expect(heading).toHaveAttribute("aria-describedby", /field-formTitle-error/);
  await expect(page.getByRole("alert")).toContainText("Nothing was published");
  await expectNoSeriousA11yViolations(page);
  expect(await visitorSees(page, "/volunteering")).toContain("Join us in 2025");

  // A draft: kept, previewed by staff, not shown to visitors.
  await heading.fill("Join us in 2027");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("status")).toContainText("Draft saved");
  await expect(page.getByLabel("Heading above the sign-up form")).toHaveValue("Join us in 2027");
  expect(await visitorSees(page, "/volunteering")).toContain("Join us in 2025");
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page).toHaveURL(/\/volunteering\?preview=volunteering$/);
  await expect(page.getByRole("region", { name: "Preview" })).toContainText("Preview: not yet published.");
  await expect(page.getByRole("heading", { name: "Join us in 2027" })).toBeVisible();

  // Published: every visitor sees it.
  await page.goto("/admin/pages/volunteering");
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("status")).toContainText("Published");
  const seen = await visitorSees(page, "/volunteering");
  expect(seen).toContain("Join us in 2027");
  expect(seen).not.toContain("Join us in 2025");

  // History: compare the first version with the current one, then restore it (asked first).
  await page.getByRole("link", { name: "History" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "History of Volunteering" })).toBeVisible();
  await expect(page.getByRole("cell", { name: staffAccount.email })).toBeVisible();
  await page.getByRole("link", { name: "Compare version 1" }).click();
  const change = page.getByRole("row", { name: /Heading above the sign-up form/ });
  await expect(change).toContainText("Join us in 2025");
  await expect(change).toContainText("Join us in 2027");
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("link", { name: "Restore version 1" }).click();
  await expect(page.getByRole("heading", { name: "Restore version 1?" })).toBeVisible();
  await page.getByRole("button", { name: "Restore version 1" }).click();
  await expect(page.getByRole("status")).toContainText("Restored: version 3 is published");
  await expect(page.getByRole("row", { name: /Copy of version 1/ })).toBeVisible();
  expect(await visitorSees(page, "/volunteering")).toContain("Join us in 2025");
});

test("a new project with an uploaded picture gets its own address and page", async ({ page }) => {
  await signIn(page);
  const home = JSON.parse(fs.readFileSync("content/home/content.json", "utf8")) as { activeProjects: unknown[] };
  const n = home.activeProjects.length;
  await page.goto("/admin/pages/home");
  await expectNoSeriousA11yViolations(page);

  await page.getByRole("button", { name: "Add project to Current projects" }).click();
  const project = page.locator(`#field-activeProjects-${n}`);
  await expect(page.locator(`#field-activeProjects-${n}-title`)).toBeFocused();
  await expect(project.getByText("made from the title when this is first published")).toBeVisible();
  await project.getByLabel("Title").fill("Village Bakery");
  await project.getByLabel("Summary").fill("A wood-fired oven baking bread for the school and the market.");
  await project.getByLabel("First column").fill("The women's group asked for an oven.");
  await project.getByLabel("Second column").fill("It bakes two hundred loaves a day.");

  // The list picture: one of the site's own, chosen from its thumbnails.
  const preview = project.getByRole("group", { name: "Picture in the project list" });
  await preview.getByRole("button", { name: /Choose from the site's pictures/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "projects/village-library" }).click();
  await expect(preview.getByLabel("Picture on the site")).toHaveValue("projects/village-library");
  await preview.getByLabel("Alt text").fill("The village library's new shelves");

  // The banner: uploaded from the computer, stored at once.
  const banner = project.getByRole("group", { name: "Banner picture" });
  const photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: "#c8741e" } })
    .jpeg()
    .toBuffer();
  await banner
    .getByLabel("Or upload a new picture")
    .setInputFiles({ name: "bakery.jpg", mimeType: "image/jpeg", buffer: photo });
  await expect(banner.getByText("Uploaded: it is this field's picture now.")).toBeVisible({ timeout: 30_000 });
  await expect(banner.getByLabel("Picture on the site")).toHaveValue(/^uploads\//);
  await banner.getByLabel("Alt text").fill("Loaves cooling outside the new bakery");

  await page.getByRole("button", { name: "Publish" }).click();
  // The banner's own "Uploaded" status stays beside it; the page's answer is the other one.
  await expect(page.getByRole("status").filter({ hasText: "Published" })).toContainText("visitors see it now");
  // Its address, from its title, is shown and kept.
  await expect(page.getByRole("link", { name: "/project/village-bakery" })).toBeVisible();

  await page.goto("/project/village-bakery");
  await expect(page.getByRole("heading", { level: 1, name: "Village Bakery" })).toBeVisible();
  const bannerImage = page.locator("main img").first();
  await expect
    .poll(() => bannerImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  expect(await bannerImage.evaluate((img: HTMLImageElement) => img.currentSrc)).toContain("/images/uploads/");
});

test("the team reordered in the editor is in the new order on /about", async ({ page }) => {
  await signIn(page);
  const about = JSON.parse(fs.readFileSync("content/about/content.json", "utf8")) as { team: { name: string }[] };
  const [first, second] = about.team.map((member) => member.name);
  await page.goto("/admin/pages/about");
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("button", { name: `Move down Team member 1: ${first}` }).click();
  // The keyboard stays with the member moved.
  await expect(page.locator("#field-team-1-_down")).toBeFocused();
  await expect(page.locator("#field-team-0-name")).toHaveValue(second!);
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("status")).toContainText("Published");

  await page.goto("/about");
  const names = await page.locator(".team-card h3").allInnerTexts();
  expect(names.slice(0, 2)).toEqual([second, first]);

  // The site settings' form, with its choice of kinds of video, passes axe too; a kind chosen shows its fields.
  await page.goto("/admin/pages/site");
  await expect(page.getByRole("heading", { level: 1, name: "Edit Site settings" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  const video = page.getByRole("group", { name: "Default video" });
  await video.getByLabel("Kind").selectOption({ label: "A YouTube video" });
  await expect(video.getByLabel("YouTube video")).toBeVisible();
  await expect(video.getByLabel("What the video is")).toHaveValue("Kilele in one minute");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the list buttons post the form and the server draws it again; Publish works the same", async ({ page }) => {
    await signIn(page);
    const payment = JSON.parse(fs.readFileSync("content/payment/content.json", "utf8")) as { presetAmounts: number[] };
    await page.goto("/admin/pages/payment");
    await page.getByLabel("Amount (£) 1", { exact: true }).fill("7");
    await page.getByRole("button", { name: "Move down Amount (£) 1" }).click();
    // Drawn again by the server, with what was typed moved with its item; nothing published yet.
    await expect(page.getByLabel("Amount (£) 2", { exact: true })).toHaveValue("7");
    await expect(page.getByLabel("Amount (£) 1", { exact: true })).toHaveValue(String(payment.presetAmounts[1]));
    await page.getByRole("button", { name: "Add amount (£) to Amounts offered" }).click();
    const added = page.getByLabel(`Amount (£) ${payment.presetAmounts.length + 1}`, { exact: true });
    await expect(added).toHaveValue("");
    // Left empty, the new amount is refused beside it.
    await page.getByRole("button", { name: "Publish" }).click();
    await expect(page.locator(`#field-presetAmounts-${payment.presetAmounts.length}-error`)).toBeVisible();
    await page.getByRole("button", { name: `Remove Amount (£) ${payment.presetAmounts.length + 1}` }).click();
    await page.getByRole("button", { name: "Publish" }).click();
    await expect(page.getByRole("status")).toContainText("Published");
    await expect(page.getByLabel("Amount (£) 2", { exact: true })).toHaveValue("7");
  });

  test("a picture of several MB goes with the form, and the draft keeps it and the words typed beside it", async ({
    page,
  }) => {
    // 5.9 MB, well over the 1 MB most posts may be: a PNG stored uncompressed, quick to resize
    // (noise would be as large, but takes a minute to encode as AVIF).
    const side = 1400;
    const photo = await sharp({ create: { width: side, height: side, channels: 3, background: "#2f7d6d" } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(photo.length).toBeGreaterThan(5 * 1024 * 1024);
    await signIn(page);
    await page.goto("/admin/pages/volunteering");
    await page.getByLabel("Heading above the sign-up form").fill("Join us in 2027");
    const header = page.getByRole("group", { name: "Header picture" });
    await header
      .getByLabel("Or upload a new picture")
      .setInputFiles({ name: "sponsored-walk.png", mimeType: "image/png", buffer: photo });
    await page.getByRole("button", { name: "Save draft" }).click();

    // The editor again, from the server, with both kept: the words typed and the picture stored.
    await expect(page.getByRole("status")).toContainText("Draft saved", { timeout: 30_000 });
    await expect(page.getByLabel("Heading above the sign-up form")).toHaveValue("Join us in 2027");
    const src = header.getByLabel("Picture on the site");
    await expect(src).toHaveValue(/^uploads\//);
    const draft = (await (await page.request.get("/api/admin/content/volunteering")).json()) as {
      draft: { content: { formTitle: string; image: { src: string } } };
    };
    expect(draft.draft.content.formTitle).toBe("Join us in 2027");
    expect(draft.draft.content.image.src).toBe(await src.inputValue());
    const stored = await page.request.get(imageUrl(draft.draft.content.image.src, fallbackWidth, "jpg"));
    expect(stored.status()).toBe(200);
  });
});
