import { z } from "zod";

// A video the pages show (content/site's defaultVideo, or a page's own): either a file this site
// serves from /video/ (made by `npm run video`, docs/decisions/021-our-own-video.md), or a YouTube
// video, played from YouTube's privacy-enhanced domain only after the visitor presses play.
// It lives in lib because the site settings (lib/site.ts) name one.

const text = z.string().trim().min(1, "must not be left empty");

/** The one origin a YouTube video is played from; the Content-Security-Policy's frame-src allows it. */
export const youtubeEmbedOrigin = "https://www.youtube-nocookie.com";

const youtubeIdPattern = /^[A-Za-z0-9_-]{11}$/;
const youtubeHosts = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "youtube-nocookie.com",
  "www.youtube-nocookie.com",
]);
const notYoutube =
  "must be a YouTube video: its 11-character id, or its address on youtube.com, youtu.be or youtube-nocookie.com";

/**
 * The id of a YouTube video from what an editor may paste: the id itself, or a watch, share,
 * embed or shorts address. Undefined for anything else (another site, a channel, a playlist).
 */
export function youtubeId(value: string): string | undefined {
  const trimmed = value.trim();
  if (youtubeIdPattern.test(trimmed)) return trimmed;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" || url.username || url.password || url.port) return undefined;
  const host = url.hostname.toLowerCase();
  const parts = url.pathname.split("/").filter(Boolean);
  let id: string | null | undefined;
  if (host === "youtu.be") id = parts.length === 1 ? parts[0] : undefined;
  else if (!youtubeHosts.has(host)) id = undefined;
  else if (parts.length === 1 && parts[0] === "watch") id = url.searchParams.get("v");
  else if (parts.length === 2 && (parts[0] === "embed" || parts[0] === "shorts")) id = parts[1];
  return id && youtubeIdPattern.test(id) ? id : undefined;
}

/** Where the player is loaded from once the visitor presses play. */
export function youtubeEmbedUrl(id: string): string {
  return `${youtubeEmbedOrigin}/embed/${id}?autoplay=1&rel=0`;
}

const ownFile = (extensions: string, what: string) =>
  z
    .string()
    .regex(
      new RegExp(`^/video/[a-z0-9]+(?:[.-][a-z0-9]+)*\\.(?:${extensions})$`),
      `must be ${what} this site serves from /video/ (made by npm run video), such as /video/kilele.${extensions.split("|")[0]}`,
    );

/** A video file of our own: MP4 (H.264) or WebM, listed in the order the browser should try them. */
export const videoFileSchema = z
  .object({
    kind: z.literal("file"),
    /** What the video is, for the player's accessible name. */
    title: text.meta({ title: "What the video is", description: "For people using a screen reader." }),
    sources: z
      .array(ownFile("webm|mp4", "a video file (.webm or .mp4)").meta({ title: "Video file" }))
      .min(1, "must name at least one video file")
      .meta({ title: "Video files", description: "Made by npm run video; the browser plays the first it can." }),
    /** The WebVTT captions the player offers (the slideshow is silent: they tell its story). */
    captions: ownFile("vtt", "a WebVTT captions file (.vtt)").meta({ title: "Captions file" }),
    captionsLanguage: z
      .string()
      .regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, "must be a language tag such as en or en-GB")
      .default("en")
      .meta({ title: "Captions' language", description: "en unless set." }),
    /** The name of the captions in the player's menu. */
    captionsLabel: text
      .default("English")
      .meta({ title: "Captions' name in the player", description: "English unless set." }),
  })
  .meta({ title: "A video of this site's own" });

export const youtubeVideoSchema = z
  .object({
    kind: z.literal("youtube"),
    title: text.meta({ title: "What the video is", description: "For people using a screen reader." }),
    /** The video's id, or any of its usual addresses; kept as the id. */
    youtube: z
      .string()
      .transform((value, ctx) => {
        const id = youtubeId(value);
        if (!id) {
          ctx.addIssue({ code: "custom", message: notYoutube });
          return z.NEVER;
        }
        return id;
      })
      .meta({ title: "YouTube video", description: "Its address on YouTube, or its id." }),
  })
  .meta({ title: "A YouTube video" });

export const videoSchema = z.discriminatedUnion("kind", [videoFileSchema, youtubeVideoSchema], {
  error: 'must say its kind: "file" (a video this site serves) or "youtube"',
});
export type Video = z.infer<typeof videoSchema>;
export type VideoFile = z.infer<typeof videoFileSchema>;

/** The MIME type a browser is told for one of our files, so it can skip those it cannot play. */
export function videoType(src: string): string {
  return src.endsWith(".webm") ? "video/webm" : "video/mp4";
}
