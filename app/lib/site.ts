import { z } from "zod";
import { httpsUrlField, sitePathField } from "./links";
import { videoSchema } from "./video-schema";

// The charity's site-wide settings (content/site/content.json): the navigation, the footer and
// receipts use them, so they live below the features that edit and load them.

const text = z.string().trim().min(1, "must not be left empty");
const httpsUrl = httpsUrlField(
  "must be an address starting with https://, such as https://www.example.org/page, with no spaces and no password in it",
);
const sitePath = sitePathField(
  "must be a path on this site, such as /privacy-policy.pdf: a single / at the start, and no spaces",
);

// Labels and help for the staff editor at /admin/pages (app/lib/editor-hints.ts).
const line = (title: string, description?: string) => text.meta(description ? { title, description } : { title });
const paragraph = (title: string, description?: string) =>
  text.meta({ title, ...(description ? { description } : {}), editor: { widget: "textarea" } });

export const siteSchema = z.object({
  shortName: line("Short name", "In the browser's tab on the home page."),
  charityName: line("Charity's name"),
  registrationNumber: z
    .string()
    .regex(/^\d{6,8}$/, "must be 6 to 8 digits")
    .meta({ title: "Registration number", description: "The charity's number, in the footer of every page." }),
  email: z.email("must be an e-mail address").meta({
    title: "E-mail address",
    description: "Shown in the footer; every e-mail the site sends is answered to it.",
  }),
  /** The charity's telephone number: the Direct Debit notices must give one (decision 092). */
  telephone: line("Telephone", "Given in the Direct Debit notices, as the Bacs scheme requires. Optional.").optional(),
  /** The charity's postal address, printed at the foot of its e-mails when set. */
  address: paragraph("Postal address", "Printed at the foot of the site's e-mails. Optional.").optional(),
  /** What receipts say besides the facts of the payment (docs/decisions/020-receipts-worth-keeping.md). */
  receipts: z
    .object({
      /** Printed on every booking receipt. */
      ticketRefundPolicy: paragraph("Ticket refund policy", "Printed on every booking receipt."),
      /** Printed on every donation receipt. */
      donationRefundPolicy: paragraph("Donation refund policy", "Printed on every donation receipt."),
      /** What a gift does, in the donation receipt. */
      whatYourGiftDoes: paragraph("What a gift does", "In every donation receipt."),
    })
    .meta({ title: "Receipts" }),
  description: paragraph("Description", "What search engines and shared links show for the site."),
  /** A quiz sold on another site (PRODUCT.md): a quiz booked here is an event with a price, and needs none. */
  quizTicketingUrl: httpsUrl.optional().meta({
    title: "Quiz night ticketing page",
    description:
      "Only for a quiz whose tickets are sold on another site: the Fundraising page then links to it. Leave it empty when the quiz is booked on this site.",
  }),
  socialUrl: httpsUrl.meta({ title: "Social media page" }),
  socialLabel: line("Social media link's words"),
  privacyPolicyUrl: sitePath.meta({
    title: "Privacy policy",
    description: "Its path on this site, such as /privacy-policy.pdf.",
  }),
  builderCredit: z
    .object({ name: line("Words"), url: httpsUrl.meta({ title: "Address" }) })
    .meta({ title: "Website builder's credit", description: "In the footer." }),
  /** The video the home page and About show unless their own content names another. */
  defaultVideo: videoSchema.meta({
    title: "Default video",
    description: "Shown on the home page and About unless they name their own.",
  }),
});
export type Site = z.infer<typeof siteSchema>;

/**
 * What every page's header and footer show of the site's settings, and all of them the root route
 * sends to the browser: the receipts' texts, the postal address, the description and the default
 * video stay on the server, or go only with the pages that show them.
 */
export function siteFrame({
  shortName,
  charityName,
  registrationNumber,
  email,
  socialUrl,
  socialLabel,
  privacyPolicyUrl,
  builderCredit,
}: Site) {
  return { shortName, charityName, registrationNumber, email, socialUrl, socialLabel, privacyPolicyUrl, builderCredit };
}
export type SiteFrame = ReturnType<typeof siteFrame>;

/**
 * Where the navigation bar's Donate button goes: the site's own donation page, or an external one
 * staff named in Settings (opened in a new tab).
 */
export interface DonateLink {
  href: string;
  external: boolean;
}
