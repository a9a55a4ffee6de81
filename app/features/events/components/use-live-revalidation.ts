import { useEffect } from "react";
import { useRevalidator } from "react-router";
import { liveFeedPath } from "./use-live-availability";

/**
 * For staff pages whose figures come from the server (sold, held, checked in, money taken): the
 * page's data is loaded again whenever the live feed reports a sale or a change, at most once a
 * second. The browser's EventSource reconnects by itself if the connection drops.
 */
export function useLiveRevalidation() {
  const revalidator = useRevalidator();
  const revalidate = revalidator.revalidate;
  useEffect(() => {
    const source = new EventSource(liveFeedPath);
    let pending: ReturnType<typeof setTimeout> | undefined;
    let first = true;
    const refresh = () => {
      // The feed opens with a snapshot of what the page already shows.
      if (first) return void (first = false);
      pending ??= setTimeout(() => {
        pending = undefined;
        void revalidate();
      }, 250);
    };
    source.addEventListener("availability", refresh);
    source.addEventListener("events-changed", refresh);
    return () => {
      clearTimeout(pending);
      source.close();
    };
  }, [revalidate]);
}
