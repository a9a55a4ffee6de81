import fs from "node:fs/promises";
import path from "node:path";
import { loadSharp } from "../images/sharp.server";
import type { MailAttachment } from "./mailer.server";

/**
 * The logo in the site's header: one drawing for the pages and the e-mails. Read from the site's
 * folder, where the server runs (as it serves build/client from there).
 */
const headerLogo = path.resolve("public", "favicon.svg");

/** The Content-ID the receipts' HTML names the logo by (`<img src="cid:charity-logo">`). */
export const logoCid = "charity-logo";

/** Shown at 56 by 56 CSS pixels, drawn at twice that for sharp screens. */
export const logoSize = 56;

let rendered: Promise<MailAttachment> | undefined;

/**
 * The charity's logo as a PNG attached inside the e-mail (not a remote picture, which many mail
 * programs block until asked): rendered once per process from the header's SVG. Undefined, and
 * logged, if it cannot be drawn: a receipt is never held up by its logo.
 */
export async function logoAttachment(): Promise<MailAttachment | undefined> {
  rendered ??= fs
    .readFile(headerLogo)
    .then(async (svg) =>
      (await loadSharp())(svg, { density: (72 * logoSize * 2) / 64 })
        .resize(logoSize * 2, logoSize * 2)
        .png({ compressionLevel: 9, palette: true })
        .toBuffer(),
    )
    .then((png) => ({ filename: "logo.png", contentType: "image/png", content: png.toString("base64"), cid: logoCid }));
  try {
    return await rendered;
  } catch (error) {
    rendered = undefined;
    console.error("The e-mail logo could not be drawn:", error);
    return undefined;
  }
}
