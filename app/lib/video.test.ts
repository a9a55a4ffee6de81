import { describe, expect, it } from "vitest";
import { siteSchema } from "./site";
import { videoType, youtubeEmbedUrl, youtubeId } from "./video";
import { videoSchema } from "./video-schema";

const ownFile = {
  kind: "file",
  title: "Kilele in one minute",
  sources: ["/video/kilele-in-one-minute.4644f88409.webm", "/video/kilele-in-one-minute.b1b1d34be0.mp4"],
  captions: "/video/kilele-in-one-minute.1b5a73df32.vtt",
};

function problems(value: unknown): string[] {
  const result = videoSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

describe("a video named in content", () => {
  it("may be our own file, with its captions in English unless it says otherwise", () => {
    expect(videoSchema.parse(ownFile)).toEqual({ ...ownFile, captionsLanguage: "en", captionsLabel: "English" });
    expect(videoSchema.parse({ ...ownFile, captionsLanguage: "sw", captionsLabel: "Kiswahili" })).toMatchObject({
      captionsLanguage: "sw",
      captionsLabel: "Kiswahili",
    });
  });

  it("may be a YouTube video, by its id or any of its usual addresses, kept as the id", () => {
    for (const youtube of [
      "aqz-KE-bpKQ",
      "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
      "https://youtube.com/watch?v=aqz-KE-bpKQ&t=42s",
      "https://m.youtube.com/watch?v=aqz-KE-bpKQ",
      "https://youtu.be/aqz-KE-bpKQ?si=abc",
      "https://www.youtube.com/embed/aqz-KE-bpKQ",
      "https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ",
      "https://www.youtube.com/shorts/aqz-KE-bpKQ",
    ]) {
      expect(videoSchema.parse({ kind: "youtube", title: "Our film", youtube }), youtube).toEqual({
        kind: "youtube",
        title: "Our film",
        youtube: "aqz-KE-bpKQ",
      });
    }
  });

  it("is played from YouTube's privacy-enhanced domain", () => {
    expect(youtubeEmbedUrl("aqz-KE-bpKQ")).toBe("https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ?autoplay=1&rel=0");
  });

  it("refuses another site's video, whichever kind it claims to be", () => {
    const youtubeMessage =
      "youtube: must be a YouTube video: its 11-character id, or its address on youtube.com, youtu.be or youtube-nocookie.com";
    for (const youtube of [
      "https://vimeo.com/76979871",
      "https://www.youtube.com.evil.example/watch?v=aqz-KE-bpKQ",
      "https://notyoutube.com/watch?v=aqz-KE-bpKQ",
      "http://www.youtube.com/watch?v=aqz-KE-bpKQ",
      "https://www.youtube.com/playlist?list=PL123",
      "https://www.youtube.com/watch?v=too-short",
      "javascript:alert(1)",
      "",
    ]) {
      expect(problems({ kind: "youtube", title: "Our film", youtube }), youtube).toEqual([youtubeMessage]);
    }
    expect(problems({ ...ownFile, sources: ["https://cdn.example.com/kilele.mp4"] })).toEqual([
      "sources.0: must be a video file (.webm or .mp4) this site serves from /video/ (made by npm run video), such as /video/kilele.webm",
    ]);
    expect(problems({ ...ownFile, captions: "https://cdn.example.com/kilele.vtt" })).toEqual([
      "captions: must be a WebVTT captions file (.vtt) this site serves from /video/ (made by npm run video), such as /video/kilele.vtt",
    ]);
  });

  it("refuses a file of ours that is not a video or a path that leaves /video/", () => {
    expect(problems({ ...ownFile, sources: ["/video/../admin.mp4"] })).toHaveLength(1);
    expect(problems({ ...ownFile, sources: ["/video/kilele.avi"] })).toHaveLength(1);
    expect(problems({ ...ownFile, sources: [] })).toEqual(["sources: must name at least one video file"]);
    expect(problems({ ...ownFile, captions: undefined })).toHaveLength(1);
  });

  it("must say which kind it is", () => {
    expect(problems({ title: "Our film", youtube: "aqz-KE-bpKQ" })).toEqual([
      'kind: must say its kind: "file" (a video this site serves) or "youtube"',
    ]);
    expect(problems({ kind: "vimeo", title: "Our film", url: "https://vimeo.com/76979871" })).toHaveLength(1);
  });

  it("tells the browser each file's type, so it skips one it cannot play", () => {
    expect(videoType("/video/a.1.webm")).toBe("video/webm");
    expect(videoType("/video/a.1.mp4")).toBe("video/mp4");
  });

  it("is what the site settings name as the default video; the old YouTube link field is gone", () => {
    const site = siteSchema.shape.defaultVideo;
    expect(site.safeParse(ownFile).success).toBe(true);
    expect(youtubeId("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ")).toBe("dQw4w9WgXcQ");
    expect(Object.keys(siteSchema.shape)).not.toContain("defaultVideoUrl");
  });
});
