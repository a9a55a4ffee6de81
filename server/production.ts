// The production process: `npm start` runs it as build/server/index.js, the server build's entry
// (vite.config.ts), compiled with the site into one bundle, so no TypeScript loader runs in
// production and the process holds one copy of every module (docs/decisions/033-a-fast-server-and-start.md).
//
// NODE_ENV is settled before anything else is loaded: React and the configuration read it when
// they are first imported, and everything below is imported only after this line.
process.env.NODE_ENV ??= "production";

const cluster = (await import("node:cluster")).default;
const { getConfig } = await import("../app/infra/config.server.ts");
const { stopOnStartupError, listeningLine } = await import("./http.ts");

const config = (() => {
  try {
    return getConfig();
  } catch (error) {
    return stopOnStartupError(error as Error);
  }
})();

if (config.processes > 1 && cluster.isPrimary) {
  // SITE_PROCESSES: this process starts and watches the ones that answer (decision 047).
  const { runProcesses } = await import("./processes.ts");
  runProcesses({
    count: config.processes,
    announce: (port) => console.log(listeningLine(config, port, `${config.processes} processes`)),
  });
} else {
  // One of several processes: its log lines say which.
  if (cluster.isWorker && process.env.SITE_PROCESS) {
    (await import("../app/infra/log.server.ts")).nameThisProcess(process.env.SITE_PROCESS);
  }
  const { startSite } = await import("./app.ts");
  const { serveSite } = await import("./http.ts");
  const { securityHeaders } = await import("./security-headers.ts");
  const { staticFiles } = await import("./static-files.ts");
  const { inlineStylesheet } = await import("../app/styles/inline-stylesheet.server.ts");

  const site = await startSite().catch(stopOnStartupError);
  const development = !site.config.production;
  serveSite(site, development ? "development" : "production", [
    securityHeaders({
      production: site.config.production,
      development: false,
      stripe: Boolean(site.config.stripe),
      styles: inlineStylesheet.source,
    }),
    staticFiles("build/client"),
  ]);
}
export {};
