import { createContext, useContext } from "react";
import stylesheet from "~/styles/app.css?url";

/**
 * The site's stylesheet, written into every page's <head> instead of linked (decision 041): the
 * first paint then waits for no second request, which on a phone's slow connection is most of it.
 * The server provides the text (app/styles/inline-stylesheet.server.ts, whose hash the
 * Content-Security-Policy names); in the browser it is read back from the page the server sent,
 * so hydration matches and the text is not in the scripts as well. The development server links
 * the file instead, so that Vite can update it in place.
 */
export const SiteStylesheetContext = createContext(
  typeof document === "undefined" ? "" : (document.querySelector("style[data-site]")?.textContent ?? ""),
);

export function SiteStylesheet() {
  const text = useContext(SiteStylesheetContext);
  // The text is the build's own stylesheet, not anything a visitor or member of staff wrote.
  if (text || !import.meta.env.DEV) return <style data-site="" dangerouslySetInnerHTML={{ __html: text }} />;
  // With a precedence, React writes the link before the tags it gathers at the top of <head> (the
  // scripts' modulepreloads among them), where a plain <link> would come after all of them.
  return <link rel="stylesheet" href={stylesheet} precedence="default" />;
}
