import { PassThrough, Transform, pipeline } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { renderToPipeableStream } from "react-dom/server";
import { NonceContext } from "~/components/layout/nonce";
import { SiteStylesheetContext } from "~/components/layout/site-stylesheet";
import { inlineStylesheet } from "~/styles/inline-stylesheet.server";
import {
  ServerRouter,
  isRouteErrorResponse,
  type AppLoadContext,
  type EntryContext,
  type HandleErrorFunction,
} from "react-router";
import { publicCacheOf } from "~/infra/http/public-cache";
import { logUnexpectedError } from "~/infra/log.server";

// How long a streamed page may wait for what it defers: longer than the Stripe client's own 20 s
// timeout, so a slow provider ends in the page's own message rather than an aborted stream.
export const streamTimeout = 25_000;

// Pages render from memory, so the whole document is usually sent at once (onAllReady): search
// engines, no-JS visitors and compression all get complete HTML. A route that waits on something
// slow (the payment provider, on /confirmation) says `handle = { streamed: true }`: it streams, so
// the visitor sees its spinner at once and the rest when it is known (sent uncompressed, because
// compression would hold the spinner back). Inline scripts, React's streaming ones included, carry
// the request's nonce.
function isStreamed(context: EntryContext) {
  return context.staticHandlerContext.matches.some(
    (match) => (context.routeModules[match.route.id]?.handle as { streamed?: boolean } | undefined)?.streamed,
  );
}

/**
 * What the page cache may keep this page as (server/page-cache.ts): the deepest matched route's
 * `handle.publicCache`, and never a staff preview.
 */
function publicCacheKind(context: EntryContext, loadContext: AppLoadContext) {
  if (loadContext.contentPreview) return undefined;
  const leaf = context.staticHandlerContext.matches.at(-1);
  return leaf ? publicCacheOf(context.routeModules[leaf.route.id]?.handle) : undefined;
}

/**
 * What React Router itself refuses before any of our code runs (a POST to a page without an
 * action: 405; a path nothing matches; its own check of an action's Origin: 400) is a visitor's
 * mistake or a stranger's probe, not a fault: it goes in the request's one log line as `refused`,
 * never as a stack on standard error, which anyone could otherwise fill. Anything else is
 * unexpected, and logged as such.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const refusedBy = refusal(error);
  if (refusedBy) context.noteRefusal?.(refusedBy);
  else logUnexpectedError(error, "Answering a page");
};

function refusal(error: unknown): string | undefined {
  if (isRouteErrorResponse(error) && error.status < 500) {
    const inner = (error as { error?: unknown }).error;
    return inner instanceof Error ? inner.message : `${error.status} ${error.statusText}`;
  }
  // React Router's own Origin check throws a plain Error (server/same-origin.ts answers first).
  if (error instanceof Error && /origin.*Aborting the action\.$/i.test(error.message)) return error.message;
  return undefined;
}

/** A page's data for a client-side navigation: a staff preview's is never stored either. */
export function handleDataRequest(response: Response, { context }: { context: AppLoadContext }) {
  if (context.contentPreview) response.headers.set("Cache-Control", "no-store");
  return response;
}

// The stylesheet written into each page (decision 041); the development server links it instead,
// so that Vite can update it in place.
const pageStylesheet = import.meta.env.DEV ? "" : inlineStylesheet.text;

/**
 * The page's scripts are asked for by its own module script at the end of <body>, not by
 * `<link rel="modulepreload">` tags at the top of <head> (decisions 041 and 045): React Router
 * writes those and React puts them first, so on a slow connection a hundred kilobytes of script
 * shared the line with the page's pictures, and the browser ran them before it first painted the
 * content the server had already sent. The page reads and works without its scripts; they come after it, and
 * the forms keep what was typed in the meantime (app/components/ui/use-early-input.ts).
 * Only the head is read; the rest passes through as it comes.
 */
export function withoutModulePreloads(): Transform {
  let head = "";
  let done = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (done) return callback(null, chunk);
      head += chunk.toString("utf8");
      const end = head.indexOf("</head>");
      if (end === -1) return callback();
      done = true;
      const text = head.slice(0, end).replace(/<link rel="modulepreload"[^>]*>/g, "") + head.slice(end);
      head = "";
      callback(null, Buffer.from(text, "utf8"));
    },
    flush(callback) {
      callback(null, head ? Buffer.from(head, "utf8") : undefined);
    },
  });
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // HTML may be kept by the visitor's browser only, never by a shared cache; a staff preview of
  // drafts not even there.
  if (loadContext.pageCache) loadContext.pageCache.kind = publicCacheKind(routerContext, loadContext);
  if (loadContext.contentPreview) responseHeaders.set("Cache-Control", "no-store");
  else if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-cache");
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  const streamed = isStreamed(routerContext);
  if (streamed) {
    responseHeaders.set(
      "Cache-Control",
      loadContext.contentPreview ? "no-store, no-transform" : "private, no-cache, no-transform",
    );
  }

  return new Promise<Response>((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    function send() {
      const body = new PassThrough({
        final(callback) {
          clearTimeout(timeoutId);
          timeoutId = undefined;
          callback();
        },
      });
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      const page = withoutModulePreloads();
      // A visitor who leaves ends both streams, and React's render with them.
      pipeline(page, body, () => {});
      pipe(page);
      resolve(
        new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      );
    }
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={loadContext.nonce}>
        <SiteStylesheetContext value={pageStylesheet}>
          <ServerRouter context={routerContext} url={request.url} nonce={loadContext.nonce} />
        </SiteStylesheetContext>
      </NonceContext>,
      {
        nonce: loadContext.nonce,
        // The whole page, or for a streamed one its shell (the spinner) with the rest to follow.
        ...(streamed ? { onShellReady: send } : { onAllReady: send }),
        onShellError: reject,
        onError(error: unknown) {
          responseStatusCode = 500;
          logUnexpectedError(error, "Rendering a page");
        },
      },
    );
  });
}
