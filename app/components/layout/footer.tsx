import { Link } from "react-router";
import type { SiteFrame } from "~/lib/site";

export function Footer({ site }: { site: SiteFrame }) {
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <section aria-labelledby="find-us">
          <h2 id="find-us">Find us</h2>
          <ul className="footer-list">
            <li>
              Email: <a href={`mailto:${site.email}`}>{site.email}</a>
            </li>
            <li>
              <a href={site.privacyPolicyUrl} type="application/pdf">
                Privacy policy (PDF)
              </a>
            </li>
            <li>
              <a href={site.socialUrl} rel="noopener noreferrer">
                {site.socialLabel}
              </a>
            </li>
          </ul>
        </section>
        <div className="footer-meta">
          <p>
            {site.charityName}:{" "}
            <Link to="/mock-event" rel="nofollow">
              Registered charity number {site.registrationNumber}
            </Link>
          </p>
          <p>
            <a href={site.builderCredit.url} rel="noopener noreferrer">
              {site.builderCredit.name}
            </a>
          </p>
        </div>
      </div>
    </footer>
  );
}
