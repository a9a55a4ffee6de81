import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is the production process (server/production.ts), which imports
  // the site and the React Router build itself, so the process, the app and the server share one
  // copy of every module (one database, one config) and production runs no TypeScript loader.
  // Both builds keep Vite's default targets: different CSS targets would give the stylesheet a
  // different hash on the server than in the browser.
  build: isSsrBuild ? { rollupOptions: { input: "./server/production.ts" } } : {},
  resolve: { tsconfigPaths: true },
  plugins: [reactRouter()],
}));
