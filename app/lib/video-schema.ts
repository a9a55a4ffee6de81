import { z } from "zod";
import { youtubeId } from "./video";

// The content's video field, apart from the helpers in video.ts: zod is for the content schema,
// the editor and the server, and the pages that play a video import video.ts
// (docs/decisions/036-a-light-first-visit.md).

const text = z.string().trim().min(1, "must not be left empty");
const notYoutube =
  "must be a YouTube video: its 11-character id, or its address on youtube.com, youtu.be or youtube-nocookie.com";

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
