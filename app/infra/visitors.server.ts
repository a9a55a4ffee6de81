import { createHmac } from "node:crypto";
import type { Queryable } from "./db/database.server";
import { storedSecret } from "./db/site-secrets.server";

// Who a visitor is, as far as limits need to know (decision 026): never their network address
// itself, which is personal data, but a keyed hash of it. The key is the site's own, made once and
// kept in the database (site_secrets), so the same address gives the same key in every process
// and across restarts, and nobody without the database can tell an address from its key.

const cached = new WeakMap<object, Promise<string>>();

/** The address-hashing key, read once per database handle. */
function addressSecret(db: Queryable, now: Date) {
  let secret = cached.get(db);
  if (!secret) {
    secret = storedSecret(db, "visitor-addresses", now);
    secret.catch(() => cached.delete(db));
    cached.set(db, secret);
  }
  return secret;
}

/**
 * The part of an address that names one visitor's connection: an IPv4 address whole (an IPv4
 * address written as IPv6 as the IPv4 one), an IPv6 address by its /64 network, since one home or
 * phone is given a whole /64 and can pick any address in it.
 */
export function addressNetwork(address: string): string {
  const trimmed = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(trimmed);
  if (mapped) return mapped[1]!;
  if (!trimmed.includes(":")) return trimmed;
  const [head = "", tail = ""] = trimmed.split("::");
  const headParts = head ? head.split(":") : [];
  const tailParts = tail ? tail.split(":") : [];
  const missing = trimmed.includes("::") ? 8 - headParts.length - tailParts.length : 0;
  const groups = [...headParts, ...Array<string>(Math.max(missing, 0)).fill("0"), ...tailParts];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** The visitor's key: an HMAC of their address's network under the site's own key, shortened. */
export async function visitorKey(db: Queryable, address: string, now: Date): Promise<string> {
  const secret = await addressSecret(db, now);
  return createHmac("sha256", secret).update(addressNetwork(address)).digest("hex").slice(0, 32);
}

/**
 * A limiter counting attempts per key in a window: `attempt` counts one and says whether the key
 * is still within its limit (the database's RateLimiter, app/infra/rate-limit.server.ts).
 */
export interface AttemptLimiter {
  attempt(key: string, now: Date): Promise<boolean>;
}
