import type sharpModule from "sharp";

/**
 * sharp (libvips and its native libraries), loaded the first time a picture is made: a link
 * preview's picture, an upload, an e-mail's logo. Most processes serve pages from the pictures the
 * build made and never need it, and loading it costs tens of megabytes of resident memory
 * (docs/performance.md).
 */
let loading: Promise<typeof sharpModule> | undefined;

export function loadSharp(): Promise<typeof sharpModule> {
  loading ??= import("sharp").then((module) => module.default);
  return loading;
}
