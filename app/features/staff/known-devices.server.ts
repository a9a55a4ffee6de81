import crypto from "node:crypto";

// A device that has signed in to a staff account before carries a long-lived cookie saying so,
// signed with the site's session secret (SESSION_SECRET, or the one the site keeps in its database).
// A right password from such a device is let through even while strangers' wrong guesses have put
// the account's limit in force (decision 025). It proves nothing on its own: the password is still
// checked, and the limits per address still apply.

export const knownDeviceCookieName = "kt_device";
const lifetimeMs = 365 * 24 * 60 * 60 * 1000;

function mac(secret: string, userId: string, issuedAt: string) {
  return crypto.createHmac("sha256", secret).update(`known-device\n${userId}\n${issuedAt}`).digest("base64url");
}

/** The Set-Cookie header that marks this device as one the member has signed in from, for a year. */
export function knownDeviceCookie(secret: string, userId: string, now: Date, secure: boolean) {
  const issuedAt = now.getTime().toString(36);
  return [
    `${knownDeviceCookieName}=${userId}.${issuedAt}.${mac(secret, userId, issuedAt)}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Strict",
    `Max-Age=${Math.round(lifetimeMs / 1000)}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

/** The account this request's known-device cookie was issued for, when its signature holds and it is under a year old. */
export function knownDeviceUserId(cookieHeader: string | null, secret: string, now: Date): string | undefined {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, value] = part.trim().split("=", 2);
    if (name !== knownDeviceCookieName || !value) continue;
    const match = /^([0-9a-f-]{36})\.([0-9a-z]{1,12})\.([\w-]{43})$/.exec(value);
    if (!match) continue;
    const [, userId, issuedAt, signature] = match as unknown as [string, string, string, string];
    const expected = Buffer.from(mac(secret, userId, issuedAt));
    if (!crypto.timingSafeEqual(Buffer.from(signature), expected)) continue;
    const age = now.getTime() - parseInt(issuedAt, 36);
    if (age >= -60_000 && age < lifetimeMs) return userId;
  }
  return undefined;
}
