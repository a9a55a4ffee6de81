import { useState } from "react";
import { Picture } from "~/components/ui/picture";
import type { Image } from "~/lib/images";

/**
 * A video shown as its poster with a play button; the player's frame loads only when asked for,
 * so the page stays light and no third party is contacted before the visitor chooses to watch.
 * Without JavaScript the button is a link to the video.
 */
export function VideoPlayer({ url, poster, title }: { url: string; poster: Image; title: string }) {
  const [playing, setPlaying] = useState(false);
  if (playing) {
    return (
      <div className="video-frame">
        <iframe
          src={`${url}${url.includes("?") ? "&" : "?"}autoplay=1`}
          title={title}
          allow="autoplay; encrypted-media; picture-in-picture"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
    );
  }
  return (
    <div className="video-frame">
      <Picture image={poster} sizes="(min-width: 70rem) 70rem, 100vw" width={1600} height={1000} />
      <a
        className="video-play"
        href={url}
        onClick={(event) => {
          event.preventDefault();
          setPlaying(true);
        }}
      >
        <span className="video-play-icon" aria-hidden="true">
          ▶
        </span>
        <span>Play video: {title}</span>
      </a>
    </div>
  );
}
