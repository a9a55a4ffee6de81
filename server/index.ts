import path from "node:path";

// `npm run dev`: the site on Vite's development server, with hot reload, under tsx.
// With NODE_ENV=production it runs the production build instead, as `npm start` does
// (build/server/index.js, made from server/production.ts).
if (process.env.NODE_ENV === "production") {
  const buildPath = path.resolve("build/server/index.js");
  await import(buildPath).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ERR_MODULE_NOT_FOUND" || !error.message.includes(buildPath)) throw error;
    console.error(
      `The site could not start.\nNo production build at ${buildPath}: run \`npm run build\` first (npm start does).`,
    );
    process.exit(1);
  });
} else {
  const { serveSite, stopOnStartupError } = await import("./http.ts");
  const { securityHeaders } = await import("./security-headers.ts");
  const vite = await import("vite");
  const viteServer = await vite.createServer({ server: { middlewareMode: true } });
  const site = await ((await viteServer.ssrLoadModule("./server/app.ts")) as typeof import("./app.ts"))
    .startSite()
    .catch(stopOnStartupError);
  serveSite(site, "development", [securityHeaders({ production: false, development: true }), viteServer.middlewares]);
}
