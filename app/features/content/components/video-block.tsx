import { useEffect, useRef, useState } from "react";
import { Picture } from "~/components/ui/picture";
import { imageUrl, imageWidths, type Image } from "~/lib/images";
import { videoType, youtubeEmbedOrigin, youtubeEmbedUrl } from "~/lib/video";
// Types only, erased from the page's script: the schema's zod stays out of it (decision 036).
import type { Video, VideoFile } from "~/lib/video-schema";

interface VideoBlockProps {
  video: Video;
  /** The picture shown until the visitor presses play. */
  poster: Image;
  /** Shown under the picture, never over it. */
  caption: string;
  /** At the top of the page (the About header): its picture loads first. */
  priority?: boolean;
}

/**
 * A video with its caption underneath (the home page's video block, the About page's header).
 * Our own file plays in the browser's player, with its captions; a YouTube video is its poster
 * and a play button until pressed, so no third party hears of the visit before the visitor
 * chooses to watch (docs/decisions/021-our-own-video.md). Nothing plays by itself.
 */
export function VideoBlock({ video, poster, caption, priority = false }: VideoBlockProps) {
  return (
    <figure className="video-block">
      <div className="video-frame">
        {video.kind === "file" ? (
          <OwnVideo video={video} poster={poster} />
        ) : (
          <YoutubeVideo id={video.youtube} title={video.title} poster={poster} priority={priority} />
        )}
      </div>
      <figcaption className="video-caption">{caption}</figcaption>
    </figure>
  );
}

/** The middle rendition (960 px): sharp in the 52rem frame, light on a phone. */
const posterWidth = imageWidths[1];

function OwnVideo({ video, poster }: { video: VideoFile; poster: Image }) {
  const download = video.sources[video.sources.length - 1];
  return (
    <video
      controls
      preload="none"
      playsInline
      // A poster has no srcset: one AVIF wide enough for a laptop, as small as the site's other pictures.
      poster={imageUrl(poster.src, posterWidth, "avif")}
      aria-label={video.title}
      width={1152}
      height={720}
    >
      {video.sources.map((src) => (
        <source key={src} src={src} type={videoType(src)} />
      ))}
      <track
        kind="captions"
        src={video.captions}
        srcLang={video.captionsLanguage}
        label={video.captionsLabel}
        default
      />
      <p>
        This browser cannot play the video: <a href={download}>download it</a>.
      </p>
    </video>
  );
}

function YoutubeVideo({
  id,
  title,
  poster,
  priority,
}: {
  id: string;
  title: string;
  poster: Image;
  priority: boolean;
}) {
  const [playing, setPlaying] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  // The play button is gone once pressed: keyboard users carry on in the player.
  useEffect(() => {
    if (playing) frame.current?.focus();
  }, [playing]);
  if (playing) {
    return (
      <iframe
        ref={frame}
        src={youtubeEmbedUrl(id)}
        title={title}
        allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
      />
    );
  }
  return (
    <>
      <Picture image={poster} sizes="(min-width: 56rem) 52rem, 100vw" width={1600} height={1000} priority={priority} />
      {/* Without JavaScript the link opens the privacy-enhanced player itself. */}
      <a
        className="video-play"
        aria-label={`Play video: ${title}`}
        href={`${youtubeEmbedOrigin}/embed/${id}`}
        onClick={(event) => {
          event.preventDefault();
          setPlaying(true);
        }}
      >
        <span className="video-play-label">
          <span className="video-play-icon" aria-hidden="true">
            ▶
          </span>
          Play video
        </span>
      </a>
    </>
  );
}
