import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { Queryable } from "./database.server";
import { siteSecrets } from "~db/schema";

/**
 * The site's own secret of this name: made (32 random bytes) and stored by the first process to ask,
 * read back by every later one, so restarts and several processes agree (decision 025).
 */
export async function storedSecret(db: Queryable, name: string, now: Date): Promise<string> {
  const value = crypto.randomBytes(32).toString("base64url");
  await db.insert(siteSecrets).values({ name, value, createdAt: now }).onConflictDoNothing();
  const [row] = await db.select({ value: siteSecrets.value }).from(siteSecrets).where(eq(siteSecrets.name, name));
  return row!.value;
}
