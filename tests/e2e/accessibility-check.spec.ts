// The accessibility check every page test runs (expectNoSeriousA11yViolations): it must fail on a
// serious or critical violation wherever it is, in the page, in a frame of the page's own origin,
// and in a frame of another origin, which axe reaches another way (decision 052).
import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "../support/fixtures";

const html = (body: string) => `<!doctype html><html lang="en"><head><title>A page</title></head>
  <body><main><h1>A page</h1>${body}</main></body></html>`;
const unnamedButton = html(`<button type="button"></button>`);

test("a page with nothing wrong passes", async ({ page }) => {
  await page.setContent(html(`<p>Nothing wrong here.</p><iframe title="Also fine" srcdoc="<p>Fine</p>"></iframe>`));
  await expectNoSeriousA11yViolations(page);
});

test("a picture without a text alternative fails", async ({ page }) => {
  await page.setContent(html(`<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">`));
  await expect(expectNoSeriousA11yViolations(page)).rejects.toThrow(/image-alt/);
});

test("a button without a name in a frame of the page's own origin fails", async ({ page }) => {
  await page.setContent(html(`<iframe title="A form" srcdoc='${unnamedButton}'></iframe>`));
  await expect(page.frameLocator("iframe").getByRole("button")).toHaveCount(1);
  await expect(expectNoSeriousA11yViolations(page)).rejects.toThrow(/button-name/);
});

test("a button without a name in a frame of another origin fails", async ({ page }) => {
  await page.route("http://frame.example/**", (route) =>
    route.fulfill({ contentType: "text/html", body: unnamedButton }),
  );
  await page.route("http://page.example/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: html(`<iframe title="A form" src="http://frame.example/"></iframe>`),
    }),
  );
  await page.goto("http://page.example/");
  await expect(page.frameLocator("iframe").getByRole("button")).toHaveCount(1);
  await expect(expectNoSeriousA11yViolations(page)).rejects.toThrow(/button-name/);
});
