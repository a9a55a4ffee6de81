import { z } from "zod";
import { videoSchema } from "./video";

// The charity's site-wide settings (content/site/content.json): the navigation, the footer and
// receipts use them, so they live below the features that edit and load them.

const text = z.string().trim().min(1);
const httpsUrl = z.url({ protocol: /^https$/ });
const sitePath = z.string().regex(/^\/[^/]/, "must be a path on this site, starting with /");

export const siteSchema = z.object({
  shortName: text,
  charityName: text,
  registrationNumber: z.string().regex(/^\d{6,8}$/, "must be 6 to 8 digits"),
  email: z.email(),
  /** The charity's postal address, printed at the foot of its e-mails when set. */
  address: text.optional(),
  /** What receipts say besides the facts of the payment (docs/decisions/020-receipts-worth-keeping.md). */
  receipts: z.object({
    /** Printed on every booking receipt. */
    ticketRefundPolicy: text,
    /** Printed on every donation receipt. */
    donationRefundPolicy: text,
    /** What a gift does, in the donation receipt. */
    whatYourGiftDoes: text,
  }),
  description: text,
  quizTicketingUrl: httpsUrl,
  socialUrl: httpsUrl,
  socialLabel: text,
  privacyPolicyUrl: sitePath,
  builderCredit: z.object({ name: text, url: httpsUrl }),
  /** The video the home page and About show unless their own content names another. */
  defaultVideo: videoSchema,
});
export type Site = z.infer<typeof siteSchema>;

/**
 * Where the navigation bar's Donate button goes: the site's own donation page, or an external one
 * staff named in Settings (opened in a new tab).
 */
export interface DonateLink {
  href: string;
  external: boolean;
}
