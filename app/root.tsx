import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from "react-router";
import type { Route } from "./+types/root";
import { Footer } from "~/components/layout/footer";
import { NavBar } from "~/components/layout/nav-bar";
import { useNonce } from "~/components/layout/nonce";
import { ErrorPage } from "~/components/layout/error-page";
import { PreviewBanner } from "~/components/layout/preview-banner";
import { SiteStylesheet } from "~/components/layout/site-stylesheet";
import { donateLink } from "~/features/donations/donate-button.server";
import { publicOrigin } from "~/infra/http/public-origin.server";
import type { ShareSite } from "~/lib/page-meta";
import { siteFrame } from "~/lib/site";

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const [content, donate] = await Promise.all([context.services.content(), donateLink(context.services)]);
  // What pages put in their link-preview tags (lib/page-meta.ts): absolute addresses need the
  // site's public address, and a page without a picture of its own shows the home page's first.
  const share: ShareSite = {
    origin: publicOrigin(context.services.config, request),
    siteName: content.site.charityName,
    image: content.home.imageWheel.images[0]!,
  };
  // A staff preview of drafts (server/content-preview.ts) says so above the page.
  return { site: siteFrame(content.site), donate, share, preview: context.contentPreview ?? null };
}

// The site's settings do not change when a visitor sends a form, so a form does not reload them;
// staff saving the Settings page (where the Donate button's target is chosen) or the site settings'
// content (/admin/pages/site: the charity's name, footer links) does.
const reloadsSettings = new Set(["/admin/settings", "/admin/pages/site", "/admin/pages/site/history"]);
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, formAction, defaultShouldRevalidate }) =>
  formMethod && formMethod.toUpperCase() !== "GET"
    ? reloadsSettings.has(formAction?.split("?")[0] ?? "")
    : defaultShouldRevalidate;

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  return (
    // The inline script below adds the "js" class before React starts, hence the suppression.
    <html lang="en-GB" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1f5130" />
        {/* Lets the stylesheet tell a page with scripts from one without, before the first paint. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: 'document.documentElement.classList.add("js")' }} />
        <Meta />
        {/* The stylesheet, before anything else that paints. */}
        <SiteStylesheet />
        {/* Links need no nonce; "" keeps React Router from copying the script nonce onto them. */}
        <Links nonce="" />
      </head>
      <body>
        {data ? <NavBar site={data.site} donate={data.donate} /> : null}
        {data?.preview ? <PreviewBanner invalid={data.preview.invalid} /> : null}
        {children}
        {data ? <Footer site={data.site} /> : null}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  useLoaderData<typeof loader>();
  return <Outlet />;
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
