import crypto from "node:crypto";
import type { PaymentDeps } from "~/infra/payments/provider.server";

// A donor's private link to their monthly gift, /giving/<token> (decision 089): only the token's
// SHA-256 is kept; every receipt brings a fresh one.

/** How long a donor's private link works: every receipt brings a fresh one. */
export const giftLinkLifetimeMs = 90 * 24 * 60 * 60_000;

/** The SHA-256 of a private link's token, as kept (the token itself never is). */
export function giftLinkHash(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/**
 * What a monthly gift's work needs: taking payments, and sealing the private link's token into the
 * letters that carry it (decision 054).
 */
export type GiftDeps = PaymentDeps & { outbox: { seal(words: Record<string, string>): string } };
