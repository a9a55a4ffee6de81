import { z } from "zod";
import { imageSchema } from "../../app/lib/image-schema";

// The sample video is a slideshow of the site's own pictures (docs/decisions/021-our-own-video.md).
// Its story is content: content/video/<name>.json names each picture and its caption. This module
// is the pure part of `npm run video` (scripts/make-video.ts): the timings, the captions file and
// ffmpeg's filter graph, so they can be tested without ffmpeg.

const text = z.string().trim().min(1);

export const slideshowSchema = z
  .object({
    title: text,
    language: z.string().regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, "must be a language tag such as en or en-GB"),
    secondsPerSlide: z.number().min(2).max(20),
    crossfadeSeconds: z.number().min(0).max(3),
    slides: z
      .array(
        z.object({
          picture: imageSchema.shape.src,
          // Two lines of a player's captions; longer ones are hard to read before the picture changes.
          caption: text.max(110, "must be at most 110 characters, two lines of captions"),
          seconds: z.number().min(2).max(20).optional(),
        }),
      )
      .min(2, "must have at least two slides"),
  })
  .refine((show) => show.crossfadeSeconds * 2 < show.secondsPerSlide, {
    message: "crossfadeSeconds must be under half of secondsPerSlide",
    path: ["crossfadeSeconds"],
  });
export type Slideshow = z.infer<typeof slideshowSchema>;

export interface Cue {
  start: number;
  end: number;
  text: string;
}

/** How long each slide is on screen, crossfades included. */
export function slideSeconds(show: Slideshow): number[] {
  return show.slides.map((slide) => Math.max(slide.seconds ?? show.secondsPerSlide, show.crossfadeSeconds * 2 + 1));
}

/** The whole video's length: slides overlap by one crossfade each. */
export function totalSeconds(show: Slideshow): number {
  const seconds = slideSeconds(show);
  return seconds.reduce((sum, s) => sum + s, 0) - show.crossfadeSeconds * (seconds.length - 1);
}

/**
 * One caption per slide. Slide i fades in at the sum of the earlier slides' lengths less one
 * crossfade each; its caption changes over at the middle of each crossfade.
 */
export function captionCues(show: Slideshow): Cue[] {
  const seconds = slideSeconds(show);
  const fade = show.crossfadeSeconds;
  const total = totalSeconds(show);
  const starts: number[] = [];
  let at = 0;
  for (const s of seconds) {
    starts.push(at);
    at += s - fade;
  }
  return show.slides.map((slide, i) => ({
    start: i === 0 ? 0 : starts[i]! + fade / 2,
    end: i === show.slides.length - 1 ? total : starts[i + 1]! + fade / 2,
    text: slide.caption,
  }));
}

/** 63.5 → "00:01:03.500" */
export function vttTime(seconds: number): string {
  const millis = Math.round(seconds * 1000);
  const pad = (n: number, width: number) => String(n).padStart(width, "0");
  const h = Math.floor(millis / 3_600_000);
  const m = Math.floor((millis % 3_600_000) / 60_000);
  const s = Math.floor((millis % 60_000) / 1000);
  return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}.${pad(millis % 1000, 3)}`;
}

/** The captions as a WebVTT file, one numbered cue a slide. */
export function webVtt(show: Slideshow): string {
  const cues = captionCues(show).map(
    (cue, i) => `${i + 1}\n${vttTime(cue.start)} --> ${vttTime(cue.end)}\n${escapeCueText(cue.text)}`,
  );
  return `WEBVTT - ${escapeCueText(show.title)}\n\n${cues.join("\n\n")}\n`;
}

// In a cue, & and < start entities and tags, and "-->" would end the timing line.
function escapeCueText(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * ffmpeg's filter graph joining the slides (inputs 0…n-1, each looped for its length) with
 * crossfades, ending in the stream labelled [video]. No zooming or panning: the only movement is
 * the fade, gentle for anyone sensitive to motion.
 */
export function crossfadeFilter(show: Slideshow, fps: number): string {
  const seconds = slideSeconds(show);
  const fade = show.crossfadeSeconds;
  const steps = seconds.map((_, i) => `[${i}:v]fps=${fps},format=yuv420p,settb=AVTB[s${i}]`);
  let previous = "s0";
  let offset = 0;
  for (let i = 1; i < seconds.length; i++) {
    offset += seconds[i - 1]! - fade;
    const out = i === seconds.length - 1 ? "video" : `x${i}`;
    steps.push(
      fade > 0
        ? `[${previous}][s${i}]xfade=transition=fade:duration=${fade}:offset=${round(offset)}[${out}]`
        : `[${previous}][s${i}]concat=n=2:v=1:a=0[${out}]`,
    );
    previous = out;
  }
  return steps.join(";");
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
