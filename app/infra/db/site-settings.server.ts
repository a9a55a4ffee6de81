import { sql } from "drizzle-orm";
import { recordAudit } from "../audit/audit.server";
import { siteSettings } from "~db/schema";
import type { Queryable } from "./database.server";

/**
 * The channel a saved setting is announced on (its key as payload), once the caller's transaction
 * commits: pages every process keeps rendered (the Donate button's target) are made again.
 */
export const settingsChannel = "kilele_settings_changed";

/**
 * Stores a setting staff changed on /admin/settings, and audits it with `summary`, in the caller's
 * transaction: every setting is saved, audited and announced the same way, whoever owns it.
 */
export async function saveSiteSetting(
  tx: Queryable,
  change: { key: string; value: unknown; staff: { id: string; email: string }; summary: string; now: Date },
) {
  const { key, value, staff, now } = change;
  await tx
    .insert(siteSettings)
    .values({ key, value, updatedAt: now, updatedBy: staff.email })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: now, updatedBy: staff.email } });
  await recordAudit(tx, {
    staff,
    action: "settings.changed",
    subject: `setting:${key}`,
    summary: change.summary,
    at: now,
  });
  await tx.execute(sql`select pg_notify(${settingsChannel}, ${key})`);
}
