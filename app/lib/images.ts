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

/** Link previews (Open Graph, Twitter cards) show one JPEG of a picture at 1200×630, cropped to fill. */
export const shareImageWidth = 1200;
export const shareImageHeight = 630;

/** Where a picture's link-preview JPEG is served ("pages/quiz-night" → "/images/share/pages/quiz-night.jpg"). */
export function shareImageUrl(src: string): string {
  return `/images/share/${src}.jpg`;
}

export function imageSrcSet(src: string, format: ImageFormat): string {
  return imageWidths.map((w) => `${imageUrl(src, w, format)} ${w}w`).join(", ");
}

/** A picture a page shows: its name under content/images/ and its description (image-schema.ts checks both). */
export type { Image } from "./image-schema";

/** Pictures staff upload are named `uploads/<id>` and served from the database at the same URLs. */
export const uploadedImagePrefix = "uploads/";
const uploadedNamePattern = /^uploads\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The id behind an uploaded picture's name ("uploads/<id>" → "<id>"), or undefined for any other name. */
export function uploadedImageId(name: string): string | undefined {
  return uploadedNamePattern.exec(name)?.[1];
}

/** The most an uploaded picture may weigh: 15 MB. */
export const maxUploadBytes = 15 * 1024 * 1024;
/** What a file input offers; the server checks the bytes themselves, never the name or this type. */
export const uploadTypes = ["image/jpeg", "image/png", "image/webp", "image/avif"] as const;

/** The message for a file that is not one of the pictures we take. */
export const notAPictureMessage = "must be a JPEG, PNG, WebP or AVIF picture: this file is not one";

/** "16.0 MB" for 16 × 1024 × 1024 bytes; rounded up, so a file just over the limit never reads as at it. */
export function megabytes(bytes: number): string {
  return `${(Math.ceil((bytes / (1024 * 1024)) * 10) / 10).toFixed(1)} MB`;
}

/** What is wrong with a file of this size, if anything: the server's rule, also shown in the browser before sending. */
export function uploadSizeProblem(bytes: number): string | undefined {
  return bytes > maxUploadBytes ? `must be at most 15 MB: this file is ${megabytes(bytes)}` : undefined;
}
