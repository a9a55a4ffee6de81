import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { siteSchema } from "../../app/lib/site";
import { captionCues, crossfadeFilter, slideshowSchema, totalSeconds, vttTime, webVtt } from "./slideshow";

const show = slideshowSchema.parse({
  title: "Three pictures",
  language: "en",
  secondsPerSlide: 6,
  crossfadeSeconds: 1,
  slides: [
    { picture: "wheel/village-sunrise", caption: "Morning in Kilele." },
    { picture: "gallery/borehole-first-water", caption: "Clean water <at last> & cheering.", seconds: 8 },
    { picture: "wheel/road-to-school", caption: "Thank you." },
  ],
});

describe("the slideshow's timings", () => {
  it("overlaps the slides by one crossfade each", () => {
    expect(totalSeconds(show)).toBe(6 + 8 + 6 - 2);
  });

  it("changes each caption in the middle of its crossfade, and covers the whole video", () => {
    expect(captionCues(show).map(({ start, end }) => [start, end])).toEqual([
      [0, 5.5],
      [5.5, 12.5],
      [12.5, 18],
    ]);
  });

  it("joins the slides with fades at those moments", () => {
    expect(crossfadeFilter(show, 25)).toBe(
      [
        "[0:v]fps=25,format=yuv420p,settb=AVTB[s0]",
        "[1:v]fps=25,format=yuv420p,settb=AVTB[s1]",
        "[2:v]fps=25,format=yuv420p,settb=AVTB[s2]",
        "[s0][s1]xfade=transition=fade:duration=1:offset=5[x1]",
        "[x1][s2]xfade=transition=fade:duration=1:offset=12[video]",
      ].join(";"),
    );
  });
});

describe("the captions file", () => {
  it("is WebVTT, one numbered cue a slide, with markup characters escaped", () => {
    expect(webVtt(show)).toBe(
      [
        "WEBVTT - Three pictures",
        "",
        "1",
        "00:00:00.000 --> 00:00:05.500",
        "Morning in Kilele.",
        "",
        "2",
        "00:00:05.500 --> 00:00:12.500",
        "Clean water &lt;at last&gt; &amp; cheering.",
        "",
        "3",
        "00:00:12.500 --> 00:00:18.000",
        "Thank you.",
        "",
      ].join("\n"),
    );
    expect(vttTime(3723.25)).toBe("01:02:03.250");
  });

  it("refuses a caption too long to read before the picture changes, and a crossfade longer than a slide", () => {
    const long = { ...show, slides: [...show.slides, { picture: "wheel/village-dusk", caption: "x".repeat(111) }] };
    expect(slideshowSchema.safeParse(long).success).toBe(false);
    expect(slideshowSchema.safeParse({ ...show, crossfadeSeconds: 3 }).success).toBe(false);
  });
});

describe("the committed sample video", () => {
  const root = path.resolve(import.meta.dirname, "../..");
  const sample = slideshowSchema.parse(
    JSON.parse(fs.readFileSync(path.join(root, "content/video/kilele-in-one-minute.json"), "utf8")),
  );
  const site = siteSchema.parse(JSON.parse(fs.readFileSync(path.join(root, "content/site/content.json"), "utf8")));

  it("is the site's default video, and every file it names is in public/video", () => {
    expect(site.defaultVideo.kind).toBe("file");
    if (site.defaultVideo.kind !== "file") return;
    for (const src of [...site.defaultVideo.sources, site.defaultVideo.captions]) {
      expect(fs.existsSync(path.join(root, "public", src)), `${src} should be in public/`).toBe(true);
    }
  });

  it("has the captions its slideshow says (run npm run video after changing them)", () => {
    if (site.defaultVideo.kind !== "file") throw new Error("the sample's default video should be our own file");
    expect(fs.readFileSync(path.join(root, "public", site.defaultVideo.captions), "utf8")).toBe(webVtt(sample));
  });

  it("lasts under a minute and shows only pictures the site has", () => {
    expect(totalSeconds(sample)).toBeGreaterThanOrEqual(30);
    expect(totalSeconds(sample)).toBeLessThanOrEqual(60);
    for (const { picture } of sample.slides) {
      expect(fs.existsSync(path.join(root, "content/images", `${picture}.svg`)), picture).toBe(true);
    }
  });
});
