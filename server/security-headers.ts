import crypto from "node:crypto";
import type { RequestHandler } from "express";
import { youtubeEmbedOrigin } from "../app/lib/video";

/** Where a YouTube video named in content is played from, once the visitor presses play (decision 021). */
const videoOrigins = [youtubeEmbedOrigin];

/**
 * The security headers of an answer that is never a document (the live feed, the health checks),
 * written in front of Express: its Content-Security-Policy allows nothing at all.
 */
export function nonDocumentHeaders(production: boolean): Record<string, string> {
  return {
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
    ...(production && { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" }),
  };
}

/**
 * Security headers on every response. The Content-Security-Policy allows exactly what the pages
 * use: our own scripts (plus React Router's inline ones, which carry this response's nonce),
 * our own styles (the stylesheet written into each page allowed by its hash), images, fetches and video files, and YouTube's privacy-enhanced player's frame.
 */
export function securityHeaders(options: {
  production: boolean;
  development: boolean;
  stripe?: boolean;
  /** The sources that vouch for the pages' inline stylesheet (its hash), in a production build. */
  styles?: string;
}): RequestHandler {
  // Stripe's Payment Element: its script, its frames and its API (only when Stripe takes payments).
  const stripe = options.stripe
    ? {
        script: " https://js.stripe.com",
        frame: " https://js.stripe.com https://hooks.stripe.com",
        connect: " https://api.stripe.com",
      }
    : { script: "", frame: "", connect: "" };
  const styleSrc = options.development
    ? "'self' 'unsafe-inline'"
    : `'self'${options.styles ? ` ${options.styles}` : ""}`;
  const connectSrc = (options.development ? "'self' ws: wss:" : "'self'") + stripe.connect;
  /** The policy, with `inlineScripts` the sources that vouch for the page's inline scripts. */
  const policy = (inlineScripts: string) =>
    [
      "default-src 'self'",
      // Vite's development server injects inline styles and scripts and talks over a web socket.
      `script-src ${options.development ? "'self' 'unsafe-inline'" : `'self' ${inlineScripts}`}${stripe.script}`,
      `style-src ${styleSrc}`,
      // blob: is a file staff have just chosen, shown before it is uploaded (an object URL of the page's own).
      "img-src 'self' data: blob:",
      "font-src 'self'",
      `connect-src ${connectSrc}`,
      `frame-src ${videoOrigins.join(" ")}${stripe.frame}`,
      "media-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join("; ");
  return (req, res, next) => {
    const nonce = crypto.randomBytes(16).toString("base64");
    // In development the policy allows inline scripts, and a nonce the browser does not hide would break hydration.
    res.locals.cspNonce = options.development ? "" : nonce;
    res.setHeader("Content-Security-Policy", policy(`'nonce-${nonce}'`));
    // A page kept rendered (server/page-cache.ts) carries no nonce: its policy names the hashes of
    // its own inline scripts instead, and so still refuses any other.
    res.locals.contentSecurityPolicy = policy;
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    // Only the door page may use the camera, to scan receipts' QR codes.
    const camera = req.path.startsWith("/admin/check-in/") ? "camera=(self)" : "camera=()";
    res.setHeader("Permissions-Policy", `${camera}, microphone=(), geolocation=(), interest-cohort=()`);
    if (options.production) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}
