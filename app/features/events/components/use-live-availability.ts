import { useEffect, useState } from "react";
import { useRevalidator } from "react-router";
import type { Availability } from "../schema";

export const liveFeedPath = "/api/live/availability";

/**
 * Ticket counts that follow the live feed: they start from what the server rendered and change
 * as tickets sell, without a reload. When the events themselves change, the page's data is loaded
 * again. A dropped connection is retried (the browser's own retry, then ours with backoff); if the
 * feed cannot be set up at all, `error` says why, for the page's alert.
 */
export function useLiveAvailability(initial: Record<string, Availability>) {
  const [live, setLive] = useState<{ from: Record<string, Availability>; counts: Record<string, Availability> }>({
    from: initial,
    counts: initial,
  });
  const [error, setError] = useState<string | null>(null);
  const revalidator = useRevalidator();
  const revalidate = revalidator.revalidate;

  useEffect(() => {
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let delay = 2_000;
    let connectedOnce = false;
    let stopped = false;

    function connect() {
      try {
        source = new EventSource(liveFeedPath);
      } catch (cause) {
        setError(`Live ticket availability could not be set up: ${(cause as Error).message}`);
        return;
      }
      source.addEventListener("open", () => {
        connectedOnce = true;
        delay = 2_000;
        setError(null);
      });
      source.addEventListener("availability", (message) => {
        const { events } = JSON.parse((message as MessageEvent<string>).data) as {
          events: Record<string, Availability>;
        };
        setLive((current) => ({ ...current, counts: events }));
      });
      source.addEventListener("events-changed", () => void revalidate());
      source.addEventListener("error", () => {
        // CONNECTING: the browser is already retrying. CLOSED: it gave up, so we retry.
        if (!source || source.readyState !== EventSource.CLOSED || stopped) return;
        source.close();
        if (!connectedOnce) {
          setError("Live ticket availability could not be set up: the server did not open the live feed.");
        }
        retry = setTimeout(connect, delay);
        delay = Math.min(delay * 2, 60_000);
      });
    }

    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [revalidate]);

  // New data from the server (a navigation or a revalidation) replaces what the feed said.
  const counts = live.from === initial ? live.counts : initial;
  if (live.from !== initial) setLive({ from: initial, counts: initial });

  return { availability: counts, error, dismissError: () => setError(null) };
}
