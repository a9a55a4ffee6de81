import type { OutputInfo, Sharp } from "sharp";
import { loadSharp } from "./sharp.server";
import {
  fallbackWidth,
  imageFormats,
  imageWidths,
  shareImageHeight,
  shareImageWidth,
  type ImageFormat,
} from "~/lib/images";

// How a picture becomes the files pages ask for, shared by the build (scripts/build-images.ts,
// content/images) and by staff uploads (./uploads.server.ts), so both look and weigh the same.

export interface Rendition {
  width: number;
  format: ImageFormat;
}

/** Every rendition of a picture: each width in AVIF and WebP, and one JPEG for older browsers. */
export const renditions: readonly Rendition[] = [
  ...imageWidths.flatMap((width) => imageFormats.map((format) => ({ width, format }))),
  { width: fallbackWidth, format: "jpg" },
];

export const contentTypes: Record<ImageFormat, string> = {
  avif: "image/avif",
  webp: "image/webp",
  jpg: "image/jpeg",
};

const quality = {
  avif: { quality: 50, effort: 4 },
  webp: { quality: 75 },
  jpg: { quality: 78, mozjpeg: true },
} as const;

/** A picture decoded once, in sRGB on white, at the largest width needed: every rendition is made from it. */
export interface Master {
  data: Buffer;
  info: OutputInfo;
}

/**
 * Decodes `image` into a master `width` pixels wide. `enlarge: false` keeps a smaller picture at its
 * own size (uploads); the build enlarges, as its sources are drawn for it.
 */
export async function masterOf(image: Sharp, width: number, { enlarge }: { enlarge: boolean }): Promise<Master> {
  return image
    .resize({ width, withoutEnlargement: !enlarge })
    .flatten({ background: "#ffffff" })
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
}

/**
 * One rendition of a master, never wider than the master. Nothing of the source's metadata (EXIF,
 * GPS, camera, ICC) survives: the master is raw pixels, and sharp writes none unless asked.
 */
export async function encodeRendition(master: Master, rendition: Rendition): Promise<Buffer> {
  const sharp = await loadSharp();
  const pipeline = sharp(master.data, { raw: master.info }).resize({
    width: rendition.width,
    kernel: "lanczos3",
    withoutEnlargement: true,
  });
  if (rendition.format === "avif") return pipeline.avif(quality.avif).toBuffer();
  if (rendition.format === "webp") return pipeline.webp(quality.webp).toBuffer();
  return pipeline.jpeg(quality.jpg).toBuffer();
}

/**
 * The link-preview JPEG (decisions 023 and 057). The build writes a content picture's to
 * /images/share/<name>.jpg; an upload keeps its among its renditions under this width and format,
 * which no page asks for. The format names its version: change it when renderShareImage changes,
 * and each upload's is made again, once, when it is next asked for.
 */
export const shareRendition = { width: shareImageWidth, format: "share-v1" } as const;

/** A picture as its link-preview JPEG: covering 1200×630 from the middle, on white, without metadata. */
export async function renderShareImage(image: Sharp): Promise<Buffer> {
  return image
    .resize({ width: shareImageWidth, height: shareImageHeight, fit: "cover", position: "centre" })
    .flatten({ background: "#ffffff" })
    .toColourspace("srgb")
    .jpeg({ quality: 80, mozjpeg: true })
    .toBuffer();
}
