import type { Image } from "~/lib/images";
import { fallbackWidth, imageSrcSet, imageUrl } from "~/lib/images";

interface PictureProps {
  image: Image;
  /** The image's displayed width at each breakpoint, so the browser picks the smallest file that fits. */
  sizes: string;
  /** Nominal size for the layout box; the stylesheet fixes the real aspect ratio per use. */
  width: number;
  height: number;
  className?: string;
  /** Images above the fold load eagerly and first; the rest wait until they are near the viewport. */
  priority?: boolean;
}

/**
 * A picture in AVIF or WebP at the width the screen needs, with a JPEG for older browsers: a content
 * image (files built from content/images) or one staff uploaded ("uploads/<id>", served from the
 * database at the same kind of URL).
 */
export function Picture({ image, sizes, width, height, className, priority = false }: PictureProps) {
  return (
    <picture className={className}>
      <source type="image/avif" srcSet={imageSrcSet(image.src, "avif")} sizes={sizes} />
      <source type="image/webp" srcSet={imageSrcSet(image.src, "webp")} sizes={sizes} />
      <img
        src={imageUrl(image.src, fallbackWidth, "jpg")}
        alt={image.alt}
        width={width}
        height={height}
        loading={priority ? "eager" : "lazy"}
        fetchPriority={priority ? "high" : undefined}
        decoding="async"
      />
    </picture>
  );
}
