import fs from "node:fs";
import path from "node:path";
import express from "express";

/**
 * The production build's static files (build/client), at the addresses they are known by, read
 * once at start-up: each top-level folder under its own name, each top-level file by its own
 * path. Any other request (every page) goes to the site without touching the disk: serving the
 * whole folder first cost a `stat` per page (docs/decisions/033-a-fast-server-and-start.md).
 *
 * Files under /assets carry a content hash in their names (Vite), and the video's files a hash of
 * their bytes (npm run video, decision 021), so browsers may keep both for a year; the video's are
 * answered in ranges (206), as players ask when seeking. Everything else is kept for a day.
 *
 * The build compresses the scripts and styles under /assets once, at brotli's best quality and
 * gzip 9 (scripts/precompress.mjs, decision 036): a browser that accepts either is sent that file
 * as it is, and one that accepts neither the plain file (which the `compression` middleware may
 * still compress in another way it accepts).
 */
export function staticFiles(root: string): express.RequestHandler {
  const router = express.Router();
  const files = new Set<string>();
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      const hashed = entry.name === "assets" || entry.name === "video";
      const options = hashed ? { immutable: true, maxAge: "1y", index: false } : { maxAge: "1d", index: false };
      if (entry.name === "assets") router.use("/assets", precompressed(path.join(root, entry.name), options));
      router.use(`/${entry.name}`, express.static(path.join(root, entry.name), options));
    } else if (entry.isFile()) {
      files.add(`/${entry.name}`);
    }
  }
  const topLevel = express.static(root, {
    maxAge: "1d",
    index: false,
    setHeaders(res, file) {
      // The door's service worker serves the check-in pages; it must be fresh after a deploy.
      if (file.endsWith("door-sw.js")) {
        res.setHeader("Service-Worker-Allowed", "/admin/check-in/");
        res.setHeader("Cache-Control", "no-cache");
      }
    },
  });
  router.use((req, res, next) => (files.has(req.path) ? topLevel(req, res, next) : next()));
  return router;
}

const encodings = [
  { name: "br", extension: ".br" },
  { name: "gzip", extension: ".gz" },
] as const;
type Encoding = (typeof encodings)[number]["name"];

/**
 * The compressed form of a file in `dir` to send, if the build made one the request accepts;
 * otherwise the next handler (express.static) sends the file itself. Which files have which forms
 * is read once at start-up, like the rest of the folder's names.
 */
function precompressed(dir: string, options: { immutable?: boolean; maxAge: string }): express.RequestHandler {
  dir = path.resolve(dir);
  const variants = new Map<string, Set<Encoding>>();
  for (const name of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    for (const { name: encoding, extension } of encodings) {
      if (!name.endsWith(extension)) continue;
      const original = "/" + name.slice(0, -extension.length).split(path.sep).join("/");
      if (!variants.has(original)) variants.set(original, new Set());
      variants.get(original)!.add(encoding);
    }
  }
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const forms = variants.get(req.path);
    if (!forms) return next();
    // Caches keep one answer per Accept-Encoding: the plain file and each compressed form differ.
    res.vary("Accept-Encoding");
    const encoding = chooseEncoding(req.headers["accept-encoding"], [...forms]);
    if (!encoding) return next();
    const extension = encodings.find((e) => e.name === encoding)!.extension;
    res.type(path.extname(req.path));
    res.setHeader("Content-Encoding", encoding);
    res.sendFile(
      path.join(dir, ...req.path.split("/").filter(Boolean)) + extension,
      // Ranges of a compressed body are no use to a script or a stylesheet: the whole file only.
      { ...options, acceptRanges: false, dotfiles: "deny" },
      (error) => {
        if (!error || res.headersSent) return;
        res.removeHeader("Content-Encoding");
        next();
      },
    );
  };
}

/**
 * Which of the encodings `offered` to send for an Accept-Encoding header (RFC 9110 §12.5.3): the
 * one the client weighs highest, brotli before gzip when it weighs them the same; none when the
 * client names neither (nor `*`), or refuses them with q=0.
 */
export function chooseEncoding(header: string | undefined, offered: readonly Encoding[]): Encoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [token, ...parameters] = part.trim().split(";");
    if (!token) continue;
    const q = parameters.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((value) => value !== undefined);
    weights.set(token.trim().toLowerCase(), q === undefined ? 1 : Number(q));
  }
  let best: Encoding | undefined;
  let bestWeight = 0;
  for (const { name } of encodings) {
    if (!offered.includes(name)) continue;
    const weight = weights.get(name) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) {
      best = name;
      bestWeight = weight;
    }
  }
  return best;
}
