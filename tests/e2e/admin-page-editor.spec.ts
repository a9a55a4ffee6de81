import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { fallbackWidth, imageUrl } from "../../app/lib/images";
import { expect, expectNoSeriousA11yViolations, testWithOwnSite as test } from "../support/fixtures";
import { hydrated } from "../support/hydration";
import { staffAccount } from "../support/site-process";
import { signIn } from "../support/staff-api";

// Staff edit the pages' words and pictures at /admin/pages (docs/decisions/032-the-page-editor.md,
// 075-the-page-editor-by-sections.md): a form drawn from each page's schema, a long page a section
// at a time; Publish shows the changes and makes them what visitors see once confirmed, a draft does
// not; a mistake is refused beside its field; projects, pictures and people lists; history and restore.

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

/** Publish's second step: the changes are listed, and "Publish now" publishes them. */
async function confirmPublish(page: Page, title: string) {
  await expect(page.getByRole("heading", { level: 1, name: `Publish ${title}?` })).toBeFocused();
  await page.getByRole("button", { name: "Publish now" }).click();
}

/** Presses Tab until `target` has the keyboard's focus (at most `limit` times). */
async function tabTo(page: Page, target: Locator, limit = 40) {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
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

  // Published, once its change is seen and confirmed: every visitor sees it.
  await page.goto("/admin/pages/volunteering");
  await page.getByRole("button", { name: "Publish" }).click();
  const change = page.getByRole("listitem").filter({ hasText: "Heading above the sign-up form" });
  await expect(change).toContainText("“Join us in 2025”");
  await expect(change).toContainText("“Join us in 2027”");
  await expectNoSeriousA11yViolations(page);
  await confirmPublish(page, "Volunteering");
  await expect(page.getByRole("status")).toContainText("Published");
  const seen = await visitorSees(page, "/volunteering");
  expect(seen).toContain("Join us in 2027");
  expect(seen).not.toContain("Join us in 2025");

  // History: compare the first version with the current one, then restore it (asked first).
  await page.getByRole("link", { name: "History" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "History of Volunteering" })).toBeVisible();
  await expect(page.getByRole("cell", { name: staffAccount.email })).toBeVisible();
  await page.getByRole("link", { name: "Compare version 1" }).click();
  const compared = page.getByRole("row", { name: /Heading above the sign-up form/ });
  await expect(compared).toContainText("Join us in 2025");
  await expect(compared).toContainText("Join us in 2027");
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
  await page.getByRole("navigation", { name: "Parts of this page" }).getByRole("link", { name: "Projects" }).click();
  await expect(page).toHaveURL(/section=projects/);
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
  // The new pictures are named as staff know them: the upload by its file's name.
  const changes = page.getByRole("list").filter({ hasText: "Village Bakery" });
  await expect(changes.getByRole("listitem").filter({ hasText: `Project ${n + 1} › Banner picture:` })).toContainText(
    "bakery.jpg",
  );
  await confirmPublish(page, "Home");
  // The banner's own "Uploaded" status stays beside it; the page's answer is the other one.
  await expect(page.getByRole("status").filter({ hasText: "Published" })).toContainText("visitors see it now");
  // Its address, from its title, is shown and kept: in the project, closed under its name until opened.
  const address = page.getByRole("link", { name: "/project/village-bakery" });
  await expect(address).toBeHidden();
  await page.locator("summary", { hasText: `Project ${n + 1}: Village Bakery` }).click();
  await expect(address).toBeVisible();

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
  await page.goto("/admin/pages/about?section=meet-the-team");
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("button", { name: `Move down Team member 1: ${first}` }).click();
  // The keyboard stays with the member moved.
  await expect(page.locator("#field-team-1-_down")).toBeFocused();
  await expect(page.locator("#field-team-0-name")).toHaveValue(second!);
  await page.getByRole("button", { name: "Publish" }).click();
  await confirmPublish(page, "About");
  await expect(page.getByRole("status")).toContainText("Published");

  await page.goto("/about");
  const names = await page.locator(".team-card h3").allInnerTexts();
  expect(names.slice(0, 2)).toEqual([second, first]);

  // The site settings' form, with its choice of kinds of video, passes axe too; a kind chosen shows its fields.
  await page.goto("/admin/pages/site");
  await expect(page.getByRole("heading", { level: 1, name: "Edit Site settings" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  const video = page.getByRole("group", { name: "Default video" });
  await hydrated(video.getByLabel("Kind")); // A kind's fields show at once with the scripts.
  await video.getByLabel("Kind").selectOption({ label: "A YouTube video" });
  await expect(video.getByLabel("YouTube video")).toBeVisible();
  await expect(video.getByLabel("What the video is")).toHaveValue("Kilele in one minute");
});

test("the home page's subtitle, by keyboard on a laptop and a phone: the bar stays in view, the change is shown, then published", async ({
  page,
}) => {
  await signIn(page);
  const original = (JSON.parse(fs.readFileSync("content/home/content.json", "utf8")) as { subtitle: string }).subtitle;
  let before = original;
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto("/admin/pages");
    await page.getByRole("region", { name: "The pages" }).getByRole("link", { name: "Home", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Edit Home" })).toBeVisible();
    // The part being edited is marked; Save draft, Preview and Publish are on the screen at once.
    const parts = page.getByRole("navigation", { name: "Parts of this page" });
    await expect(parts.getByRole("link", { name: "Top of the page" })).toHaveAttribute("aria-current", "page");
    const bar = page.getByRole("group", { name: "Save or publish" });
    for (const name of ["Save draft", "Preview", "Publish"])
      await expect(bar.getByRole("button", { name, exact: true })).toBeInViewport();
    await expectNoSeriousA11yViolations(page);

    // By keyboard: from the part's link to the subtitle, which is not left under the bar.
    await parts.getByRole("link", { name: "Top of the page" }).focus();
    const subtitle = page.getByLabel("Subtitle");
    await tabTo(page, subtitle);
    const words = `Friends of Kilele, seen at ${width} px wide.`;
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type(words);
    const field = (await subtitle.boundingBox())!;
    const barTop = (await bar.boundingBox())!.y;
    expect(field.y + Math.min(field.height, 40)).toBeLessThanOrEqual(barTop);
    await expect(bar.getByRole("button", { name: "Save draft" })).toBeInViewport();

    await tabTo(page, bar.getByRole("button", { name: "Publish", exact: true }));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Publish Home?" })).toBeFocused();
    const change = page.getByRole("listitem").filter({ hasText: "Top of the page › Subtitle" });
    await expect(change).toContainText(`“${before}”`);
    await expect(change).toContainText(`“${words}”`);
    await expect(page.getByRole("listitem").filter({ hasText: "›" })).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);
    await tabTo(page, page.getByRole("button", { name: "Publish now" }));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status")).toContainText("Published: visitors see it now.");

    const seen = await visitorSees(page, "/");
    expect(seen).toContain(words);
    expect(seen).not.toContain(before);
    before = words;
  }
});

test("each part of the home page keeps its own draft, and leaving a part with changes typed saves them", async ({
  page,
}) => {
  await signIn(page);
  await page.goto("/admin/pages/home");
  // Leaving a part saves its draft through the page's scripts: typed once they run.
  await hydrated(page.getByLabel("Subtitle"));
  await page.getByLabel("Subtitle").fill("Words typed before going on.");
  // Another part's link with changes typed: the draft is saved, then that part opens.
  await page.getByRole("navigation", { name: "Parts of this page" }).getByRole("link", { name: "Projects" }).click();
  await expect(page).toHaveURL(/section=projects/);
  await expect(page.getByRole("status")).toContainText("Draft saved");
  await page.getByLabel("Heading above the current projects").fill("What we are building now");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("status")).toContainText("Draft saved");

  const draft = (await (await page.request.get("/api/admin/content/home")).json()) as {
    draft: { content: { subtitle: string; activeProjectsTitle: string } };
  };
  expect(draft.draft.content.subtitle).toBe("Words typed before going on.");
  expect(draft.draft.content.activeProjectsTitle).toBe("What we are building now");

  // Publish lists both parts' changes.
  await page.getByRole("button", { name: "Publish" }).click();
  const changes = page.getByRole("listitem").filter({ hasText: "›" });
  await expect(changes).toHaveText([/^Top of the page › Subtitle/, /^Projects › Heading above the current projects/]);
  await page.getByRole("link", { name: "Back to editing" }).click();
  await expect(page.getByLabel("Heading above the current projects")).toHaveValue("What we are building now");
  expect(await visitorSees(page, "/")).not.toContain("Words typed before going on.");
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
    await expect(page.getByRole("heading", { level: 1, name: "Publish Payment?" })).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: "Amounts offered › Amount (£) 2" })).toContainText("“7”");
    await page.getByRole("button", { name: "Publish now" }).click();
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
