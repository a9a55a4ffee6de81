// A video the pages show (content/site's defaultVideo, or a page's own): either a file this site
// serves from /video/ (made by `npm run video`, docs/decisions/021-our-own-video.md), or a YouTube
// video, played from YouTube's privacy-enhanced domain only after the visitor presses play.
// It lives in lib because the site settings (lib/site.ts) name one; its zod schema and the types
// Video and VideoFile, which only the content schema and the server need, are in video-schema.ts,
// which imports this module and is never imported by it.

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

/** The MIME type a browser is told for one of our files, so it can skip those it cannot play. */
export function videoType(src: string): string {
  return src.endsWith(".webm") ? "video/webm" : "video/mp4";
}
