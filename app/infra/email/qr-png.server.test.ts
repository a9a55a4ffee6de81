import QRCode from "qrcode";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { readQr } from "../../../tests/support/qr";
import { qrPng } from "./qr-png.server";

describe("a QR code drawn as a one-bit PNG", () => {
  it("reads back as the text it was drawn from, at the size asked for or just under, whole modules only", async () => {
    for (const text of [
      "https://kilele.example/admin/check-in/ticket/7d3c2a4e-9b1f-4e2a-8c6d-2f1e0b9a8c7d",
      "https://a-much-longer-charity-address.example.org.uk/admin/check-in/ticket/7d3c2a4e-9b1f-4e2a-8c6d-2f1e0b9a8c7d",
    ]) {
      const png = qrPng(text, { width: 240, margin: 1, errorCorrectionLevel: "M" });
      expect(await readQr(png)).toBe(text);
      const { width, height, channels } = await sharp(png).metadata();
      expect(width).toBe(height);
      expect(width).toBeGreaterThan(200);
      expect(width).toBeLessThanOrEqual(240);
      expect(channels).toBe(1);
      // A receipt's attachment stays small: a few hundred bytes, not kilobytes.
      expect(png.length).toBeLessThan(1_500);
    }
  });

  it("keeps a quiet margin of white around the code", async () => {
    const text = "https://kilele.example/x";
    const png = qrPng(text, { width: 100, margin: 2, errorCorrectionLevel: "M" });
    const { data, info } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    const scale = info.width / (QRCode.create(text, { errorCorrectionLevel: "M" }).modules.size + 4);
    expect(Number.isInteger(scale)).toBe(true);
    // The first two modules' worth of rows and columns are white; the finder pattern starts after them.
    for (let i = 0; i < 2 * scale; i++) {
      expect(data[i * info.width + Math.floor(info.width / 2)]).toBe(255);
      expect(data[Math.floor(info.height / 2) * info.width + i]).toBe(255);
    }
    expect(data[Math.ceil(2 * scale) * info.width + Math.ceil(2 * scale)]).toBe(0);
  });
});
