import { useMemo } from "react";
import { useLocation } from "react-router";

/**
 * The current page's query string, to read. React Router's `useSearchParams` does the same and can
 * also change it; no page here changes it that way, and leaving that hook unused keeps its code out
 * of the script every page loads (docs/performance.md, "First visit to /").
 */
export function useQuery(): URLSearchParams {
  const { search } = useLocation();
  return useMemo(() => new URLSearchParams(search), [search]);
}
