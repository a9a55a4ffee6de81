import { useEffect, useRef, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import type { DonateLink, SiteFrame } from "~/lib/site";

const links = [
  { to: "/", label: "Home" },
  { to: "/fundraising", label: "Fundraising events" },
  { to: "/about", label: "About" },
  { to: "/volunteering", label: "Volunteering" },
  { to: "/contact", label: "Contact" },
] as const;

/**
 * The navigation bar: the five links (the current one underlined), a burger menu on small screens,
 * and Donate: the site's own donation page, or the external one staff chose (in a new tab).
 */
export function NavBar({ site, donate }: { site: Pick<SiteFrame, "shortName">; donate: DonateLink }) {
  const [open, setOpen] = useState(false);
  const navRef = useRef<HTMLElement>(null);
  const burgerRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  // Following a link closes the menu.
  useEffect(() => setOpen(false), [location.pathname]);

  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      if (navRef.current && !navRef.current.contains(event.target as Node)) setOpen(false);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === "Escape") {
        setOpen(false);
        burgerRef.current?.focus();
      }
    }
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open]);

  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <nav ref={navRef} className="nav" aria-label="Main">
        <Link to="/" className="nav-brand">
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span>{site.shortName}</span>
        </Link>
        <button
          ref={burgerRef}
          type="button"
          className="nav-burger"
          aria-expanded={open}
          aria-controls="nav-links"
          onClick={() => setOpen((value) => !value)}
        >
          <span className="nav-burger-icon" aria-hidden="true" />
          <span className="visually-hidden">Menu</span>
        </button>
        <ul id="nav-links" className="nav-links" data-open={open}>
          {links.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end={link.to === "/"} className="nav-link" prefetch="intent">
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        {donate.external ? (
          <a className="button button-donate" href={donate.href} target="_blank" rel="noopener noreferrer">
            Donate<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        ) : (
          <Link className="button button-donate" to={donate.href} prefetch="intent">
            Donate
          </Link>
        )}
      </nav>
    </header>
  );
}
