import "react-router";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import { getConfig, type Config } from "../app/infra/config.server";
import { servicesFor, type ContentPreview } from "./content-preview";
import { createServices, type Services } from "./services";

declare module "react-router" {
  interface AppLoadContext {
    /** This response's Content-Security-Policy nonce, for React Router's inline scripts. */
    nonce: string;
    services: Services;
    /**
     * The visitor's address, for rate limits: the X-Forwarded-For entry the outermost of the
     * TRUST_PROXY proxies added, or the connection's own address when there are none.
     */
    clientAddress: string;
    /** Set when a member of staff previews drafts on a public page (server/content-preview.ts). */
    contentPreview?: ContentPreview;
  }
}

export interface Site {
  config: Config;
  handler: express.Express;
  /** Ends long-lived responses (the live feed), so that the HTTP server can close. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The site as one Express handler. The production build bundles this file together with the
 * React Router app (server/production.ts), so both share one copy of the configuration and one
 * database connection.
 */
export async function startSite(): Promise<Site> {
  const config = getConfig();
  const services = await createServices(config);
  const handler = express();
  handler.disable("x-powered-by");
  handler.set("trust proxy", config.trustProxy);
  handler.use(
    createRequestHandler({
      mode: config.production ? "production" : "development",
      // In production the build is loaded once and its route table derived once; in development
      // it is asked for on every request, so that Vite's latest modules answer.
      build: config.production
        ? await import("virtual:react-router/server-build")
        : () => import("virtual:react-router/server-build"),
      getLoadContext: async (req, res) => ({
        nonce: String(res.locals.cspNonce ?? ""),
        ...(await servicesFor(services, req)),
        clientAddress: req.ip ?? req.socket.remoteAddress ?? "unknown",
      }),
    }),
  );
  return { config, handler, drain: () => services.drain(), close: () => services.close() };
}
