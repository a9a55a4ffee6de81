import { useEffect, useState, useSyncExternalStore } from "react";
import type { Image } from "~/lib/images";
import { Picture } from "./picture";
import { shouldAutoAdvance, wrapIndex } from "./carousel-state";

const reducedMotionQuery = "(prefers-reduced-motion: reduce)";

function subscribeReducedMotion(onChange: () => void) {
  const query = window.matchMedia(reducedMotionQuery);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** True when the visitor asked for less motion; on the server we assume so, and never auto-advance. */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => window.matchMedia(reducedMotionQuery).matches,
    () => true,
  );
}

interface CarouselProps {
  label: string;
  images: Image[];
  /** Seconds between slides. */
  delay?: number;
}

/**
 * The image wheel: turns every `delay` seconds, wraps both ways, with arrows, indicators and a
 * pause button. It holds still while hovered or focused and whenever reduced motion is asked for.
 * Screen readers hear the slide change only when the visitor moved it (APG carousel pattern).
 */
export function Carousel({ label, images, delay = 10 }: CarouselProps) {
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(true);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const count = images.length;
  const autoAdvance = shouldAutoAdvance({ count, playing, hovered, focused, reducedMotion });

  useEffect(() => {
    if (!autoAdvance) return;
    const timer = setInterval(() => setIndex((current) => wrapIndex(current, 1, count)), delay * 1000);
    return () => clearInterval(timer);
  }, [autoAdvance, count, delay]);

  const go = (next: number) => setIndex(wrapIndex(next, 0, count));

  return (
    <section
      className="carousel"
      aria-roledescription="carousel"
      aria-label={label}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="carousel-slides" aria-live={autoAdvance ? "off" : "polite"}>
        {images.map((image, i) => (
          <div
            key={image.src}
            className="carousel-slide"
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${count}`}
            hidden={i !== index}
          >
            <Picture
              image={image}
              sizes="(min-width: 70rem) 70rem, 100vw"
              width={1600}
              height={1000}
              priority={i === 0}
            />
          </div>
        ))}
      </div>
      {count > 1 ? (
        <div className="carousel-controls">
          <button
            type="button"
            className="carousel-play"
            onClick={() => setPlaying((value) => !value)}
            aria-label={playing ? "Pause the slideshow" : "Play the slideshow"}
          >
            <span aria-hidden="true">{playing ? "❚❚" : "▶"}</span>
          </button>
          <button type="button" className="carousel-arrow" onClick={() => go(index - 1)} aria-label="Previous slide">
            <span aria-hidden="true">‹</span>
          </button>
          <div className="carousel-indicators">
            {images.map((image, i) => (
              <button
                key={image.src}
                type="button"
                className="carousel-indicator"
                aria-label={`Show slide ${i + 1}`}
                aria-current={i === index ? "true" : undefined}
                onClick={() => go(i)}
              />
            ))}
          </div>
          <button type="button" className="carousel-arrow" onClick={() => go(index + 1)} aria-label="Next slide">
            <span aria-hidden="true">›</span>
          </button>
        </div>
      ) : null}
    </section>
  );
}
