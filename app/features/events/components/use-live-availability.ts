import { useEffect, useMemo, useState } from "react";
import { useRevalidator } from "react-router";
import type { Availability } from "../schema";

export const liveFeedPath = "/api/live/availability";

/**
 * Ticket counts that follow the live feed: they start from what the server rendered and change
 * as tickets sell, without a reload. The feed sends the whole picture when it connects, then only
 * the events whose counts changed; while it is connected its picture is shown, otherwise the
 * page's own data. When the events themselves change, the page's data is loaded again. A dropped
 * connection is retried (the browser's own retry, then ours with backoff and a little jitter, which
 * also covers a feed refused as busy); if the feed cannot be set up at all, `error` says why, for
 * the page's alert.
 */
export function useLiveAvailability(initial: Record<string, Availability>) {
  const [live, setLive] = useState<Record<string, Availability> | null>(null);
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
        setLive(eventsOf<Availability>(message));
      });
      source.addEventListener("availability-changed", (message) => {
        setLive((current) => (current ? mergeAvailability(current, eventsOf<Availability | null>(message)) : current));
      });
      source.addEventListener("events-changed", () => void revalidate());
      source.addEventListener("error", () => {
        // CONNECTING: the browser is already retrying. CLOSED: it gave up (or was refused), so we retry.
        if (!source || source.readyState !== EventSource.CLOSED || stopped) return;
        source.close();
        // Until the feed is back, the page's own counts are shown.
        setLive(null);
        if (!connectedOnce) {
          setError("Live ticket availability could not be set up: the server did not open the live feed.");
        }
        retry = setTimeout(connect, delay * (0.75 + Math.random() / 2));
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

  // Events the feed has not told of yet (none, normally) keep the page's counts.
  const availability = useMemo(() => (live ? { ...initial, ...live } : initial), [initial, live]);
  return { availability, error, dismissError: () => setError(null) };
}

function eventsOf<T>(message: Event): Record<string, T> {
  return (JSON.parse((message as MessageEvent<string>).data) as { events: Record<string, T> }).events;
}

/** The feed's picture with its latest changes; null marks an event that is gone. */
export function mergeAvailability(
  current: Record<string, Availability>,
  changes: Record<string, Availability | null>,
): Record<string, Availability> {
  const next = { ...current };
  for (const [id, counts] of Object.entries(changes)) {
    if (counts) next[id] = counts;
    else delete next[id];
  }
  return next;
}
