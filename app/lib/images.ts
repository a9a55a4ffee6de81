import { z } from "zod";

// The widths and formats every content image is rendered to at build time (scripts/build-images.ts)
// and offered in (components/ui/picture.tsx). Keep the two in step through these constants.

export const imageWidths = [480, 960, 1600] as const;
export const imageFormats = ["avif", "webp"] as const;
/** The one JPEG kept for browsers without AVIF or WebP. */
export const fallbackWidth = 960;

export type ImageFormat = (typeof imageFormats)[number] | "jpg";

/** Public URL of one rendition of a content image ("projects/water-well" → "/images/projects/water-well-960.avif"). */
export function imageUrl(src: string, width: number, format: ImageFormat): string {
  return `/images/${src}-${width}.${format}`;
}

export function imageSrcSet(src: string, format: ImageFormat): string {
  return imageWidths.map((w) => `${imageUrl(src, w, format)} ${w}w`).join(", ");
}

/**
 * An image names a source picture under content/images/ without its extension
 * (e.g. "projects/water-well"); the build renders it to AVIF, WebP and JPEG at several widths.
 */
export const imageSchema = z.object({
  src: z.string().regex(/^[a-z0-9-]+(\/[a-z0-9-]+)*$/, "must name an image under content/images, without extension"),
  alt: z.string().trim(),
});
export type Image = z.infer<typeof imageSchema>;
