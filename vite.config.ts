import { createRequire } from "node:module";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// React Router's production build: its package names its development build for every condition;
// the two differ only in the warnings the development build prints. The server keeps the package's
// choice (docs/performance.md); the browser's build takes the one without the warnings.
const reactRouterDist = path.join(
  path.dirname(createRequire(import.meta.url).resolve("react-router/package.json")),
  "dist",
  "production",
);

/**
 * What every page runs, in one script for the browser (decision 036): React, React DOM and React
 * Router, the root route and the client's entry (each then a few bytes that point into this
 * script, 311 bytes fewer on every first visit), then the site's own modules that the root and the
 * public pages share (the layout,
 * pictures, events' cards and live counts, the video, money and dates). Left to itself the bundler
 * makes a file of each set of modules shared by the same pages: eighteen scripts for the home
 * page, each compressed on its own and each a request before the page can start.
 */
const everyPage = [
  /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
  /[\\/]app[\\/](root|entry\.client)\.tsx$/,
  /[\\/]app[\\/]components[\\/]layout[\\/]/,
  /[\\/]app[\\/]components[\\/]ui[\\/](picture|alert-dialog)\.tsx$/,
  /[\\/]app[\\/]lib[\\/](money|london-time|page-meta|images|video)\.ts$/,
  /[\\/]app[\\/]features[\\/]events[\\/]components[\\/](event-card|event-list|live-feed-alert|use-live-availability)\.tsx?$/,
  /[\\/]app[\\/]features[\\/]content[\\/]components[\\/](video-block|mission-block)\.tsx$/,
];

export default defineConfig(({ command, isSsrBuild }) => {
  // The production build for the browser; development (one module graph for the server and the
  // browser, with @react-router/express loading the package's own React Router) keeps the defaults.
  const browserBuild = command === "build" && !isSsrBuild;
  return {
    // The server build's entry is the production process (server/production.ts), which imports
    // the site and the React Router build itself, so the process, the app and the server share one
    // copy of every module (one database, one config) and production runs no TypeScript loader.
    // Both builds keep Vite's default targets: different CSS targets would give the stylesheet a
    // different hash on the server than in the browser.
    build: isSsrBuild
      ? { rollupOptions: { input: "./server/production.ts" } }
      : {
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: [{ name: "site", test: (id: string) => everyPage.some((pattern) => pattern.test(id)) }],
              },
            },
          },
        },
    resolve: {
      tsconfigPaths: true,
      alias: !browserBuild
        ? []
        : [
            // In the browser, zod without `new Function` (app/lib/zod-in-the-browser.ts).
            { find: /^zod$/, replacement: path.resolve("app/lib/zod-in-the-browser.ts") },
            { find: /^react-router$/, replacement: path.join(reactRouterDist, "index.mjs") },
            { find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, "dom-export.mjs") },
          ],
    },
    plugins: [reactRouter()],
  };
});
