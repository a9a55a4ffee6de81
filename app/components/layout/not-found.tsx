import { Link } from "react-router";

/** The page for an address that leads nowhere: a route that does not exist or an unknown project. */
export function NotFound() {
  return (
    <main id="main" className="page narrow not-found">
      <title>Page not found</title>
      <meta name="robots" content="noindex" />
      <h1>Page not found</h1>
      <p>Sorry, we could not find the page you were looking for. It may have moved, or the link may be mistyped.</p>
      <p>
        <Link to="/" className="button">
          Go to the home page
        </Link>
      </p>
    </main>
  );
}
