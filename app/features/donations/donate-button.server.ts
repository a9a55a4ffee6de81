import { eq } from "drizzle-orm";
import { z } from "zod";
import { saveSiteSetting } from "~/infra/db/site-settings.server";
import type { Database, Queryable } from "~/infra/db/database.server";
import { AppError } from "~/lib/errors";
import type { DonateLink } from "~/lib/site";
import { siteSettings } from "~db/schema";
import { parseExternalDonationPage } from "./schema";

// Where the navigation bar's Donate button goes (PRODUCT.md): the site's own donation page,
// /payment, in the same tab; or, once staff name one on the Settings page, the charity's external
// donation page in a new tab. Kept in site_settings, changed only from Settings, audited.

export const donateButtonKey = "donate-button";

const storedSchema = z.object({ externalUrl: z.string().nullable() });
export type DonateButtonSettings = z.infer<typeof storedSchema>;

/** The site's own page: where Donate goes until staff name another. */
export const ownDonationPage: DonateLink = { href: "/payment", external: false };

export async function donateButtonSettings({ db }: { db: Queryable }): Promise<DonateButtonSettings> {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.key, donateButtonKey));
  const stored = storedSchema.safeParse(row?.value);
  // A stored address is checked again, so nothing but an https page can ever sit behind the button.
  const url = stored.success && stored.data.externalUrl ? parseExternalDonationPage(stored.data.externalUrl) : null;
  return { externalUrl: url?.ok ? url.url : null };
}

/** Where the Donate button goes now. */
export async function donateLink({ db }: { db: Queryable }): Promise<DonateLink> {
  const { externalUrl } = await donateButtonSettings({ db });
  return externalUrl ? { href: externalUrl, external: true } : ownDonationPage;
}

/** Saves the Settings page's External donation page (empty: the site's own), audited; a bad address changes nothing. */
export async function saveDonateButton(
  { db }: { db: Database },
  staff: { id: string; email: string },
  input: { externalUrl: string },
  { now }: { now: Date },
): Promise<DonateButtonSettings> {
  const parsed = parseExternalDonationPage(input.externalUrl);
  if (!parsed.ok) throw new AppError("invalid", parsed.message, { fields: { externalUrl: parsed.message } });
  const value: DonateButtonSettings = { externalUrl: parsed.url };
  return db.transaction(async (tx) => {
    await saveSiteSetting(tx, {
      key: donateButtonKey,
      value,
      staff,
      summary: parsed.url
        ? `Donate button: opens ${new URL(parsed.url).hostname} in a new tab`
        : "Donate button: this site's own donation page",
      now,
    });
    return value;
  });
}
