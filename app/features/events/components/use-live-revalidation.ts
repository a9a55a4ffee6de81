import { useEffect } from "react";
import { useRevalidator } from "react-router";
import { liveFeedPath } from "./use-live-availability";

/**
 * For staff pages whose figures come from the server (sold, held, checked in, money taken): the
 * page's data is loaded again whenever the live feed reports a sale or a change, once per burst
 * (a quarter of a second after its first message). The browser's EventSource
 * reconnects by itself if the connection drops; if it gives up (the server refused the feed as
 * busy), we try again with backoff.
 */
export function useLiveRevalidation() {
  const revalidator = useRevalidator();
  const revalidate = revalidator.revalidate;
  useEffect(() => {
    let source: EventSource | undefined;
    let pending: ReturnType<typeof setTimeout> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let delay = 2_000;
    let stopped = false;
    let first = true;
    const refresh = () => {
      // The feed opens with a snapshot of what the page already shows.
      if (first) return void (first = false);
      pending ??= setTimeout(() => {
        pending = undefined;
        void revalidate();
      }, 250);
    };
    function connect() {
      source = new EventSource(liveFeedPath);
      source.addEventListener("open", () => (delay = 2_000));
      source.addEventListener("availability", refresh);
      source.addEventListener("availability-changed", refresh);
      source.addEventListener("events-changed", refresh);
      source.addEventListener("error", () => {
        if (!source || source.readyState !== EventSource.CLOSED || stopped) return;
        source.close();
        retry = setTimeout(connect, delay * (0.75 + Math.random() / 2));
        delay = Math.min(delay * 2, 60_000);
      });
    }
    connect();
    return () => {
      stopped = true;
      clearTimeout(pending);
      clearTimeout(retry);
      source?.close();
    };
  }, [revalidate]);
}
