import type { AvailabilityFeed, FeedMessage } from "./availability-feed.server";

/**
 * The live feed as server-sent events: each event's {sold, remaining, soldOut}, first as a
 * snapshot, then whenever a ticket is sold or an event changes. No personal data. The connection
 * ends when the visitor leaves or the server shuts down (the browser is told to come back).
 */
export function availabilityStream(feed: AvailabilityFeed, request: Request): Response {
  const headers = {
    "Content-Type": "text/event-stream; charset=utf-8",
    // no-transform keeps the compression middleware from buffering the stream.
    "Cache-Control": "no-cache, no-transform",
    "X-Accel-Buffering": "no",
  };
  // Shutting down: the browser is asked to come back in two seconds (to this server's successor).
  if (feed.closed) return new Response("retry: 2000\n\n", { headers });
  const encoder = new TextEncoder();
  let cleanup = () => {};

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const sendMessage = (message: FeedMessage) =>
        message.type === "availability"
          ? send(`event: availability\ndata: ${JSON.stringify({ events: message.events })}\n\n`)
          : send("event: events-changed\ndata: {}\n\n");
      const end = () => {
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed by the visitor
        }
      };
      const unsubscribe = feed.subscribe(sendMessage);
      const unregister = feed.onClose(end);
      // A comment every 25 s keeps proxies from closing a quiet connection.
      const heartbeat = setInterval(() => send(": keep-alive\n\n"), 25_000);
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
        unregister();
      };
      request.signal.addEventListener("abort", end);
      // Reconnect after 2 s if the connection drops.
      send("retry: 2000\n\n");
      sendMessage({ type: "availability", events: await feed.snapshot() });
    },
    cancel() {
      cleanup();
    },
  });

  return new Response(stream, { headers });
}
