import { readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { expect, expectNoSeriousA11yViolations, test } from "../support/fixtures";
import { readContent } from "../support/content";
import { startSiteProcess, type RunningSite } from "../support/site-process";
import { hydrated } from "../support/hydration";

// The home page's video block and the About page's header video (docs/decisions/021-our-own-video.md):
// our own slideshow by default, played by the browser from this site; a YouTube video only when
// content names one, and only once the visitor presses play.

// Pages scrolled whole, a video played and axe run: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 60_000 });

const home = readContent("home");
const about = readContent("about");
const site = readContent("site");
const ownVideo = site.defaultVideo.kind === "file" ? site.defaultVideo : undefined;
const slideshow = JSON.parse(readFileSync(path.resolve("content/video/kilele-in-one-minute.json"), "utf8")) as {
  slides: { caption: string }[];
};

const videoPages = [
  { path: "/", caption: home.video.text },
  { path: "/about", caption: about.video.caption },
];

interface Requests {
  /** Every http(s) request the page made since recording began. */
  seen: URL[];
  /** Those not answered yet, but for the live availability feed, which stays open. */
  pending: Set<string>;
}

function recordRequests(page: Page): Requests {
  const recorded: Requests = { seen: [], pending: new Set() };
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol !== "http:" && url.protocol !== "https:") return;
    recorded.seen.push(url);
    if (url.pathname !== "/api/live/availability") recorded.pending.add(request.url());
  });
  const done = (request: { url(): string }) => recorded.pending.delete(request.url());
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return recorded;
}

/** Scrolls to the end of the page and back to the video, then waits until the page has nothing left to load. */
async function loadWholePage(page: Page, requests: Requests) {
  await page.locator("footer").scrollIntoViewIfNeeded();
  await page.locator(".video-frame").first().scrollIntoViewIfNeeded();
  const picturesNearby = () =>
    page.evaluate(() =>
      [...document.images]
        .filter((image) => {
          const { top, bottom, width } = image.getBoundingClientRect();
          return width > 0 && bottom > -innerHeight && top < 2 * innerHeight;
        })
        .every((image) => image.complete),
    );
  await expect
    .poll(async () => (await picturesNearby()) && requests.pending.size === 0, { timeout: 15_000 })
    .toBe(true);
}

/** Addresses in the page's markup that a browser would fetch by itself (pictures further down included). */
async function addressesToFetch(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("img, source, video, track, iframe, script, link, audio, embed, object")].flatMap(
      (element) =>
        ["src", "srcset", "poster", "data", ...(element.localName === "link" ? ["href"] : [])].flatMap((name) =>
          (element.getAttribute(name) ?? "")
            .split(",")
            .map((candidate) => candidate.trim().split(/\s+/)[0] ?? "")
            .filter(Boolean),
        ),
    ),
  );
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error("not displayed");
  return found;
}

function inside(inner: { x: number; y: number; width: number; height: number }, outer: typeof inner) {
  return (
    inner.x >= outer.x - 0.5 &&
    inner.y >= outer.y - 0.5 &&
    inner.x + inner.width <= outer.x + outer.width + 0.5 &&
    inner.y + inner.height <= outer.y + outer.height + 0.5
  );
}

async function expectNoSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, "the page is wider than the screen").toBeLessThanOrEqual(client);
}

test.describe("our own video, shown by default", () => {
  test.beforeAll(() => {
    expect(ownVideo, "the sample content's default video is our own file").toBeDefined();
  });

  for (const { path: pagePath, caption } of videoPages) {
    test(`${pagePath} asks nothing of another site, and shows the video in the browser's player with captions`, async ({
      page,
      baseURL,
    }) => {
      const requests = recordRequests(page);
      await page.goto(pagePath);
      const video = page.locator(".video-block video");
      await expect(video).toHaveAccessibleName(ownVideo!.title);
      await expect(video).toHaveAttribute("controls", "");
      await expect(video).toHaveAttribute("playsinline", "");
      await expect(video).toHaveAttribute("preload", "none");
      await expect(video).not.toHaveAttribute("autoplay");
      await expect(video).toHaveAttribute("poster", /^\/images\/pages\/[a-z-]+-960\.avif$/);
      await expect(video.locator("source")).toHaveCount(ownVideo!.sources.length);
      await expect(video.locator("track")).toHaveAttribute("kind", "captions");
      await expect(video.locator("track")).toHaveAttribute("src", ownVideo!.captions);
      await expect(page.locator(".video-block figcaption")).toHaveText(caption);
      await expect(page.locator("iframe")).toHaveCount(0);

      await loadWholePage(page, requests);
      const origin = new URL(baseURL!).origin;
      expect(requests.seen.length).toBeGreaterThan(0);
      expect(requests.seen.filter((url) => url.origin !== origin).map(String)).toEqual([]);
      const addresses = await addressesToFetch(page);
      expect(addresses).toContain(ownVideo!.captions);
      expect(addresses.filter((address) => new URL(address, origin).origin !== origin)).toEqual([]);
    });
  }

  test("the video's files are served from this site, in ranges for seeking, kept for a year", async ({ request }) => {
    for (const src of ownVideo!.sources) {
      const whole = await request.get(src);
      expect(whole.status(), src).toBe(200);
      expect(whole.headers()["content-type"]).toBe(src.endsWith(".webm") ? "video/webm" : "video/mp4");
      expect(whole.headers()["accept-ranges"]).toBe("bytes");
      expect(whole.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
      const size = (await whole.body()).length;
      expect(size).toBeGreaterThan(100_000);
      expect(size).toBeLessThan(2_500_000);

      const part = await request.get(src, { headers: { Range: "bytes=1000-1099" } });
      expect(part.status(), `${src} in a range`).toBe(206);
      expect(part.headers()["content-range"]).toBe(`bytes 1000-1099/${size}`);
      expect((await part.body()).equals((await whole.body()).subarray(1000, 1100))).toBe(true);
    }

    const captions = await request.get(ownVideo!.captions);
    expect(captions.status()).toBe(200);
    expect(captions.headers()["content-type"]).toMatch(/^text\/vtt\b/);
    const vtt = await captions.text();
    expect(vtt).toMatch(/^WEBVTT/);
    for (const { caption } of slideshow.slides) expect(vtt).toContain(caption);
  });

  test("the page's policy lets media come only from this site and frames only from YouTube's privacy-enhanced player", async ({
    request,
  }) => {
    const csp = (await request.get("/about")).headers()["content-security-policy"] ?? "";
    expect(csp).toContain("media-src 'self'");
    expect(csp).toContain("frame-src https://www.youtube-nocookie.com;");
  });

  test("the video plays from the keyboard, with its story in the captions and no request to another site", async ({
    page,
    baseURL,
  }) => {
    const requests = recordRequests(page);
    await page.goto("/about");
    const video = page.locator(".video-block video");
    await video.focus();
    await expect(video).toBeFocused();
    await page.keyboard.press("Space");
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 })
      .toBeGreaterThan(0.2);
    const cue = () =>
      video.evaluate((v: HTMLVideoElement) => {
        const track = v.textTracks[0];
        return track?.mode === "showing" ? ((track.activeCues?.[0] as VTTCue | undefined)?.text ?? "") : "hidden";
      });
    await expect.poll(cue, { timeout: 20_000 }).toBe(slideshow.slides[0]!.caption);
    await video.evaluate((v: HTMLVideoElement) => v.pause());
    const origin = new URL(baseURL!).origin;
    expect(requests.seen.filter((url) => url.origin !== origin).map(String)).toEqual([]);
  });

  test.describe("on a 390 px phone", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    for (const { path: pagePath } of videoPages) {
      test(`${pagePath}: the whole picture fits the screen, the caption is under it, nothing is cut off or scrolls sideways`, async ({
        page,
      }) => {
        await page.goto(pagePath);
        const video = page.locator(".video-block video");
        await video.scrollIntoViewIfNeeded();
        const frame = await box(page.locator(".video-frame"));
        const picture = await box(video);
        const caption = await box(page.locator(".video-block figcaption"));
        expect(frame.x).toBeGreaterThanOrEqual(0);
        expect(frame.x + frame.width).toBeLessThanOrEqual(390);
        expect(inside(picture, frame)).toBe(true);
        // The picture's own 16:10 shape, shown whole.
        expect(picture.width / picture.height).toBeCloseTo(1.6, 1);
        expect(await video.evaluate((v) => getComputedStyle(v).objectFit)).toBe("contain");
        expect(caption.y).toBeGreaterThanOrEqual(frame.y + frame.height);
        expect(caption.x).toBeGreaterThanOrEqual(0);
        expect(caption.x + caption.width).toBeLessThanOrEqual(390);
        await expectNoSidewaysScroll(page);
        await expectNoSeriousA11yViolations(page);
      });
    }
  });
});

test.describe("a YouTube video named in content", () => {
  const youtubeId = "aqz-KE-bpKQ";
  let youtubeSite: RunningSite;
  let contentDir: string;

  test.beforeAll(async () => {
    contentDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-video-content-"));
    await fs.cp("content", contentDir, { recursive: true });
    const file = path.join(contentDir, "site", "content.json");
    const settings = JSON.parse(await fs.readFile(file, "utf8"));
    settings.defaultVideo = { kind: "youtube", title: "Our film", youtube: `https://youtu.be/${youtubeId}` };
    await fs.writeFile(file, JSON.stringify(settings));
    youtubeSite = await startSiteProcess({ CONTENT_DIR: contentDir });
  });

  test.afterAll(async () => {
    await youtubeSite?.stop();
    await fs.rm(contentDir, { recursive: true, force: true });
  });

  /** YouTube is not reachable from here: the player's address is answered with a stand-in page. */
  async function standInForYoutube(page: Page): Promise<string[]> {
    const asked: string[] = [];
    await page.route("https://www.youtube-nocookie.com/**", (route) => {
      asked.push(route.request().url());
      return route.fulfill({
        body: "<!doctype html><title>player</title><p>YouTube player</p>",
        contentType: "text/html",
      });
    });
    return asked;
  }

  for (const { path: pagePath, caption } of videoPages) {
    test(`${pagePath} shows the poster and contacts YouTube only when play is pressed, then plays from youtube-nocookie.com`, async ({
      page,
    }) => {
      const asked = await standInForYoutube(page);
      const requests = recordRequests(page);
      await page.goto(`${youtubeSite.url}${pagePath}`);
      await expect(page.locator(".video-block figcaption")).toHaveText(caption);
      await expect(page.locator(".video-block video")).toHaveCount(0);
      await loadWholePage(page, requests);
      await expectNoSeriousA11yViolations(page);
      const origin = new URL(youtubeSite.url).origin;
      expect(requests.seen.filter((url) => url.origin !== origin).map(String)).toEqual([]);
      await expect(page.locator("iframe")).toHaveCount(0);

      const play = page.getByRole("link", { name: "Play video: Our film" });
      // The page's scripts come after its content (decision 045): the player opens in the page, and
      // takes the focus, once React has taken the link over (before, the link opens the player itself).
      await hydrated(play);
      await play.focus();
      await page.keyboard.press("Enter");
      const player = page.locator(".video-block iframe");
      await expect(player).toHaveAttribute(
        "src",
        `https://www.youtube-nocookie.com/embed/${youtubeId}?autoplay=1&rel=0`,
      );
      await expect(player).toHaveAttribute("title", "Our film");
      await expect(player).toBeFocused();
      await expect(player.contentFrame().getByText("YouTube player")).toBeVisible();
      expect(asked).toEqual([`https://www.youtube-nocookie.com/embed/${youtubeId}?autoplay=1&rel=0`]);
      expect(
        requests.seen.filter((url) => url.origin !== origin && url.hostname !== "www.youtube-nocookie.com"),
      ).toEqual([]);
    });
  }

  test.describe("on a 390 px phone", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("About: the play button is whole inside the picture, the caption is under it, nothing scrolls sideways", async ({
      page,
    }) => {
      await page.goto(`${youtubeSite.url}/about`);
      const frame = await box(page.locator(".video-frame"));
      const picture = page.locator(".video-frame img");
      const pictureBox = await box(picture);
      const button = await box(page.locator(".video-play-label"));
      const caption = await box(page.locator(".video-block figcaption"));
      expect(frame.x).toBeGreaterThanOrEqual(0);
      expect(frame.x + frame.width).toBeLessThanOrEqual(390);
      expect(inside(pictureBox, frame)).toBe(true);
      expect(inside(button, pictureBox), "the play button is inside the picture").toBe(true);
      expect(button.y).toBeGreaterThan(pictureBox.y + 8);
      expect(button.y + button.height).toBeLessThan(pictureBox.y + pictureBox.height - 8);
      expect(caption.y, "the caption is under the picture").toBeGreaterThanOrEqual(frame.y + frame.height);
      // The whole picture, not a strip of it: its box has the picture's own shape.
      await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      const natural = await picture.evaluate((img: HTMLImageElement) => img.naturalWidth / img.naturalHeight);
      expect(pictureBox.width / pictureBox.height).toBeCloseTo(natural, 1);
      await expectNoSidewaysScroll(page);
    });
  });

  test("on a laptop the About picture is whole, not cropped to the people's heads", async ({ page }) => {
    await page.goto(`${youtubeSite.url}/about`);
    const picture = page.locator(".video-frame img");
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const pictureBox = await box(picture);
    const natural = await picture.evaluate((img: HTMLImageElement) => img.naturalWidth / img.naturalHeight);
    expect(pictureBox.width / pictureBox.height).toBeCloseTo(natural, 1);
    expect(pictureBox.height).toBeLessThanOrEqual(page.viewportSize()!.height);
  });
});
