import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is our Express app, which imports the React Router build itself,
  // so the app and the server share one copy of every module (one database, one config).
  // Both builds keep Vite's default targets: different CSS targets would give the stylesheet a
  // different hash on the server than in the browser.
  build: isSsrBuild ? { rollupOptions: { input: "./server/app.ts" } } : {},
  resolve: { tsconfigPaths: true },
  plugins: [reactRouter()],
}));
