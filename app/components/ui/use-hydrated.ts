import { useEffect, useState } from "react";

/**
 * Whether the page's scripts have taken over: false in the server's HTML and in the browser's first
 * render, true from the render after hydration. A control whose safeguard only the scripts provide
 * (a question before a refund or a cancellation) waits for this, and so does anything that can
 * only work with them (sharing, adding a row in place).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
