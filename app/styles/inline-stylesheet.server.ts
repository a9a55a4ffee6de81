import crypto from "node:crypto";
import text from "./app.css?inline";

/**
 * The site's stylesheet as the build made it, for the server to write into every page
 * (app/components/layout/site-stylesheet.tsx, decision 041), and the hash by which the
 * Content-Security-Policy allows exactly that <style> element and no other.
 */
export const inlineStylesheet = {
  text,
  source: `'sha256-${crypto.createHash("sha256").update(text).digest("base64")}'`,
};
