import { Link, isRouteErrorResponse, useRouteError } from "react-router";
import { isPageRefusal } from "~/lib/errors";
import { NotFound } from "./not-found";

/**
 * The error boundary of the site and of each page that can fail on its own: the 404 page, or a
 * generic apology with the reference the failure was logged under (never the error's own text).
 * The navigation and footer stay, so the visitor can go on.
 */
export function ErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  // A member of staff whose role does not reach this page (403): why, and where they may go.
  if (isRouteErrorResponse(error) && isPageRefusal(error.data)) {
    const { title, message, links } = error.data.refused;
    return (
      <main id="main" className="page narrow">
        <title>{`${title} · Staff`}</title>
        <h1>{title}</h1>
        <p>{message}</p>
        {links.map((link) => (
          <p key={link.href}>
            <Link to={link.href}>{link.label}</Link>
          </p>
        ))}
      </main>
    );
  }
  const details = isRouteErrorResponse(error) ? (error.data as { ref?: unknown; message?: unknown } | null) : null;
  const ref = details?.ref;
  // A refusal the visitor may read (an AppError's message), e.g. a form sent from another site; or a
  // form too large to send, refused before the site saw it with its message alone (server/requests.ts).
  const message =
    typeof details?.message === "string"
      ? details.message
      : isRouteErrorResponse(error) && error.status === 413 && typeof error.data === "string"
        ? error.data
        : undefined;
  if (message) {
    return (
      <main id="main" className="page narrow">
        <title>Not possible</title>
        <h1>Not possible</h1>
        <p>{message}</p>
      </main>
    );
  }
  return (
    <main id="main" className="page narrow">
      <title>Something went wrong</title>
      <h1>Something went wrong</h1>
      <p>Sorry, this page could not be shown. Please try again in a moment.</p>
      {typeof ref === "string" ? (
        <p>
          If it keeps happening, write to us quoting reference <strong>{ref}</strong>.
        </p>
      ) : null}
    </main>
  );
}
