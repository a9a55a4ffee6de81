import path from "node:path";
import compression from "compression";
import express from "express";
import type { Site } from "./app.ts";
import { bodyLimit, requestLog } from "./requests.ts";
import { securityHeaders } from "./security-headers.ts";

// The process: the request log and body ceiling, static files, compression, security headers, the
// site, and a clean shutdown.
// `npm start` runs it on the production build; `npm run dev` runs it on Vite's development server.
const development = process.env.NODE_ENV !== "production";

const app = express();
app.disable("x-powered-by");
app.use(requestLog());
app.use(bodyLimit());
app.use(compression());

/** Start-up problems (a bad variable, a broken content file, no database) stop the process with their message. */
function stopOnStartupError(error: Error): never {
  console.error(`The site could not start.\n${error.message}`);
  process.exit(1);
}

let site: Site;
let stopping = false;
if (development) {
  const vite = await import("vite");
  const viteServer = await vite.createServer({ server: { middlewareMode: true } });
  app.use(securityHeaders({ production: false, development: true }));
  app.use(viteServer.middlewares);
  site = await ((await viteServer.ssrLoadModule("./server/app.ts")) as typeof import("./app.ts"))
    .startSite()
    .catch(stopOnStartupError);
} else {
  const buildPath = path.resolve("build/server/index.js");
  const build = (await import(buildPath).catch(() =>
    stopOnStartupError(new Error(`No production build at ${buildPath}: run \`npm run build\` first (npm start does).`)),
  )) as typeof import("./app.ts");
  site = await build.startSite().catch(stopOnStartupError);
  app.use(
    securityHeaders({ production: site.config.production, development: false, stripe: Boolean(site.config.stripe) }),
  );
  // File names under /assets carry a content hash, so browsers may keep them for a year.
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false }));
  // The video's files carry a hash of their bytes in their names too (npm run video, decision 021),
  // and are answered in ranges (206), as players ask when seeking.
  app.use("/video", express.static("build/client/video", { immutable: true, maxAge: "1y", index: false }));
  app.use(
    express.static("build/client", {
      maxAge: "1d",
      index: false,
      setHeaders(res, file) {
        // The door's service worker serves the check-in pages; it must be fresh after a deploy.
        if (file.endsWith("door-sw.js")) {
          res.setHeader("Service-Worker-Allowed", "/admin/check-in/");
          res.setHeader("Cache-Control", "no-cache");
        }
      },
    }),
  );
}
app.set("trust proxy", site.config.trustProxy);
// While shutting down, no connection is kept alive for another request.
app.use((_req, res, next) => {
  if (stopping) res.setHeader("Connection", "close");
  next();
});
app.use(site.handler);

const server = app.listen(site.config.port, site.config.host ?? "0.0.0.0", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : site.config.port;
  console.log(
    `Kilele Trust site listening at http://localhost:${port} (${development ? "development" : "production"})`,
  );
  if (site.config.production && site.config.demoPayments) {
    console.log("Demonstration payments: test cards only, no real money is charged (decision 028).");
  }
});

async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal} received: finishing requests in flight, then closing the database.`);
  // Requests in flight finish; idle keep-alive connections are closed now, stragglers after 10 s.
  const forceClose = setTimeout(() => server.closeAllConnections(), 10_000).unref();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await site.drain();
  await closed;
  clearTimeout(forceClose);
  await site.close();
  console.log("Stopped cleanly.");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
