import { z } from "zod";

// Every address staff type that a page shows as a link (the site settings' links, an event's
// ticketing page, the Donate button's external page) passes this one rule: a path on this site,
// or an https address. Each is parsed with the URL class, as a browser will read it, because a
// pattern cannot see what a browser makes of "/\evil.example" (another site) or a tab it drops.
// docs/decisions/056-one-rule-for-staff-links.md.

/** An origin no real site has: a path is resolved against it to see that it stays there. */
const thisSite = "https://site.invalid";

/** Whitespace and control characters, which URL parsers drop or rewrite before they read the rest. */
const unsafeCharacter = /[\s\p{Cc}]/u;

function parsed(value: string, base?: string): URL | undefined {
  try {
    return new URL(value, base);
  } catch {
    return undefined;
  }
}

/**
 * A path on this site, such as "/privacy-policy.pdf": a single "/" and then anything but a second
 * "/" or "\" (either makes the rest a host name), nothing a parser drops, and on this site once parsed.
 */
export function isSitePath(value: string): boolean {
  if (unsafeCharacter.test(value)) return false;
  if (value[0] !== "/" || value.length < 2 || value[1] === "/" || value[1] === "\\") return false;
  return parsed(value, thisSite)?.origin === thisSite;
}

/**
 * A page on the web: written out from "https://" (so it means the same on any page that links to
 * it), a host name with a dot, no user name or password, nothing a parser drops.
 */
export function isHttpsUrl(value: string): boolean {
  if (unsafeCharacter.test(value) || value.slice(0, 8).toLowerCase() !== "https://") return false;
  const url = parsed(value);
  return (
    url !== undefined &&
    url.protocol === "https:" &&
    url.hostname.includes(".") &&
    url.username === "" &&
    url.password === ""
  );
}

/** A field that takes a path on this site (see isSitePath), trimmed; `message` for every fault. */
export function sitePathField(message: string) {
  return z.string(message).trim().refine(isSitePath, message);
}

/** A field that takes an https address (see isHttpsUrl), trimmed; `message` for every fault. */
export function httpsUrlField(message: string) {
  return z.string(message).trim().refine(isHttpsUrl, message);
}
