import { matchRoutes } from "react-router";
import { AppError } from "~/lib/errors";
import { maxUploadBytes, uploadSizeProblem } from "~/lib/images";

// How large a request's body may be, by route (docs/decisions/024-bad-input.md,
// docs/decisions/058-body-limits-by-route.md): the named limits the routes read their bodies with,
// and the table of routes the server's backstop (server/requests.ts) reads, so the two cannot drift.

const kilobyte = 1024;
const megabyte = 1024 * kilobyte;

/**
 * How large a request body may be, in bytes, by what it is. Each route reads its body with one of
 * these (`readJsonBody`, `readFormBody`, `readTextBody` in api.server.ts); past it the answer is
 * 413, a declared Content-Length at once, a chunked body as soon as it passes the limit.
 */
export const bodyLimits = {
  /** A visitor's form or JSON (a booking, a donation, a sign-up, signing in): a few KB. */
  form: 16 * kilobyte,
  /** A staff member's form or JSON: an event with its texts, a batch of check-ins, a list of ids. */
  staff: 256 * kilobyte,
  /** A payment provider's webhook: Stripe's events are a few KB; its largest well under 1 MB. */
  webhook: megabyte,
  /** One picture's bytes (POST /api/admin/images): the upload limit (decision 012). */
  picture: maxUploadBytes,
  /**
   * The page editor's post. Its text is far smaller (the whole home page, every project with its
   * gallery, is 38 KB); without JavaScript the pictures chosen go with the form: four of the largest.
   */
  pageForm: 64 * megabyte,
  /** The event form's post, with its pictures (a poster, gallery pictures, a reviewer's photo). */
  eventForm: 100 * megabyte,
} as const;

export type BodyLimit = keyof typeof bodyLimits;

/**
 * The limit each route that reads a body reads it with, by its path in app/routes.ts. A path not
 * here (a route that reads no body, or no route at all) gets `form`, the smallest. The test of
 * server/requests.ts posts to every route of app/routes.ts and fails when one reads more or less.
 */
export const routeBodyLimits = {
  volunteering: "form",
  "api/volunteers": "form",
  "api/bookings": "form",
  "api/bookings/:bookingRef/release": "form",
  "api/donations": "form",
  "api/regular-gifts": "form",
  "api/waiting-list": "form",
  "api/waiting-list/offer": "form",
  "fundraising-event/:id/waiting-list": "form",
  "waiting-list/decline": "form",
  giving: "form",
  "giving/:token": "form",
  "api/payments/offline/confirm": "form",
  "api/payments/webhook": "webhook",
  "api/admin/session": "form",
  "api/admin/events": "staff",
  "api/admin/events/:id": "staff",
  "api/admin/events/:id/check-ins": "staff",
  "api/admin/events/:id/cancel": "form",
  "api/admin/bookings/:bookingRef/refunds": "form",
  "api/admin/donations/:donationId/refund": "form",
  "api/admin/gift-aid/claims": "staff",
  "api/admin/images": "picture",
  "api/admin/people/erase": "form",
  "api/admin/content/:name": "staff",
  "api/admin/content/:name/versions": "staff",
  "admin/sign-in": "form",
  "admin/join/:token": "form",
  "admin/forgot-password": "form",
  "admin/reset-password/:token": "form",
  "admin/gift-aid/claim.csv": "staff",
  "admin/events/new": "eventForm",
  "admin/events/:id": "eventForm",
  "admin/volunteers": "staff",
  "admin/events/:id/waiting-list": "staff",
  "admin/events/:id/messages/new": "staff",
  "admin/people": "staff",
  "admin/donations/:donationId": "staff",
  "admin/regular-giving": "staff",
  "admin/regular-giving/:giftId": "staff",
  "admin/gift-aid": "staff",
  "admin/bookings/:bookingRef": "staff",
  "admin/staff": "staff",
  "admin/account": "staff",
  "admin/emails": "staff",
  "admin/settings": "staff",
  "admin/pages/:name": "pageForm",
  "admin/pages/:name/history": "staff",
} as const satisfies Record<string, BodyLimit>;

const limitedRoutes = Object.entries(routeBodyLimits).map(([path, limit]) => ({ path, limit }));

/**
 * The path a request is for, as React Router reads it: a single-fetch request's `.data` (a form
 * posted with JavaScript, `/admin/pages/home.data`; `/_root.data` for `/`) and a trailing slash
 * taken off.
 */
function pagePath(path: string) {
  if (path === "/_root.data") return "/";
  const page = path.endsWith(".data") ? path.slice(0, -".data".length) : path;
  return page.length > 1 && page.endsWith("/") ? page.slice(0, -1) : page;
}

/**
 * The limit for a body sent to `path` (a request's path, without its query string): its route's,
 * matched as React Router matches it (any case, percent-encoding, the `.data` form), else `form`.
 */
export function bodyLimitFor(path: string): BodyLimit {
  return matchRoutes(limitedRoutes, pagePath(path))?.[0]?.route.limit ?? "form";
}

/** "16 KB", "64 MB". */
function size(bytes: number) {
  return bytes >= megabyte ? `${bytes / megabyte} MB` : `${bytes / kilobyte} KB`;
}

/** A body past `maxBytes`, refused in general words (413, saying the limit). */
export function tooLargeError(maxBytes: number) {
  return new AppError("payload-too-large", `The request is too large (at most ${size(maxBytes)}).`, {
    // The rest of the body is not read: the connection is closed after this answer.
    headers: { Connection: "close" },
  });
}

/**
 * A body past a named limit, refused in the words of the routes that read with it; `declared` is
 * the size it declared, when it did. The backstop answers with the same words as the route.
 */
export function bodyTooLarge(limit: BodyLimit, declared?: number): AppError {
  switch (limit) {
    case "pageForm":
      return new AppError(
        "payload-too-large",
        `The form is too large to send at once (at most ${size(bodyLimits.pageForm)}): please upload fewer pictures at a time.`,
      );
    case "eventForm":
      return new AppError(
        "payload-too-large",
        `The form is too large to send at once (at most ${size(bodyLimits.eventForm)}): please add fewer pictures at a time.`,
      );
    case "picture":
      return new AppError("payload-too-large", "The picture was not stored.", {
        fields: { file: (declared && uploadSizeProblem(declared)) || "must be at most 15 MB: this file is larger" },
      });
    default:
      return tooLargeError(bodyLimits[limit]);
  }
}
