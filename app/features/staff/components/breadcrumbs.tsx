import { Link, useLocation } from "react-router";
import { sectionOf } from "../sections";

/**
 * Where a deep staff page sits: "Staff home › Events › Harvest Supper". The section is the one the
 * address belongs to (the staff navigation's list); `via` are the steps between it and this page.
 */
export function Breadcrumbs({ here, via = [] }: { here: string; via?: { label: string; to: string }[] }) {
  const section = sectionOf(useLocation().pathname);
  const trail = [
    { label: "Staff home", to: "/admin" },
    ...(section && section.to !== "/admin" ? [{ label: section.label, to: section.to }] : []),
    ...via,
  ];
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs print-hidden">
      <ol>
        {trail.map((step) => (
          <li key={step.to}>
            <Link to={step.to}>{step.label}</Link>
          </li>
        ))}
        <li>
          <span aria-current="page">{here}</span>
        </li>
      </ol>
    </nav>
  );
}
