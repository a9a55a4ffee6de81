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
 */
export function staticFiles(root: string): express.RequestHandler {
  const router = express.Router();
  const files = new Set<string>();
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      const hashed = entry.name === "assets" || entry.name === "video";
      router.use(
        `/${entry.name}`,
        express.static(
          path.join(root, entry.name),
          hashed ? { immutable: true, maxAge: "1y", index: false } : { maxAge: "1d", index: false },
        ),
      );
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
