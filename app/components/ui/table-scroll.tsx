import type { ReactNode } from "react";

/**
 * A wide table's box: it scrolls sideways on a phone while the page does not, and the keyboard
 * can scroll it too (it takes focus, with a name for screen readers).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="admin-table-wrap" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
