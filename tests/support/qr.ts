import fs from "node:fs/promises";
import jsQR from "jsqr";
import QRCode from "qrcode";
import sharp from "sharp";

/** What a QR code picture (a receipt's attachment) says. */
export async function readQr(picture: Buffer): Promise<string | undefined> {
  const { data, info } = await sharp(picture)
    .flatten({ background: "#ffffff" })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data;
}

/**
 * A short video of a QR code held in front of a camera, in the YUV4MPEG2 format Chromium's fake
 * camera plays (--use-file-for-fake-video-capture): a white 640×480 frame with the code in the
 * middle, repeated. Chromium loops it.
 */
export async function qrVideo(text: string, file: string): Promise<void> {
  const width = 640;
  const height = 480;
  const code = await QRCode.toBuffer(text, { type: "png", width: 360, margin: 2, errorCorrectionLevel: "M" });
  const { data } = await sharp({
    create: { width, height, channels: 3, background: "#ffffff" },
  })
    .composite([{ input: code, gravity: "centre" }])
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  // 4:2:0: the luma plane is the grey picture (one channel after greyscale), chroma planes neutral.
  const luma = Buffer.alloc(width * height);
  const channels = data.length / (width * height);
  for (let i = 0; i < width * height; i++) luma[i] = data[i * channels]!;
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), luma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  await fs.writeFile(file, Buffer.concat([header, ...Array.from({ length: 10 }, () => frame)]));
}
