import { retryFrame, type AvailabilityFeed, type FeedFrame } from "./availability-feed.server";

const streamHeaders = {
  "Content-Type": "text/event-stream; charset=utf-8",
  // no-transform keeps the compression middleware from buffering the stream.
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};

/**
 * The live feed as server-sent events: each event's {sold, remaining, soldOut}, first as a
 * snapshot, then only what changed whenever a ticket is sold or an event changes. No personal data.
 * The connection ends when the visitor leaves or the server shuts down (the browser is told to
 * come back), and is dropped when the visitor does not take what is sent: past
 * `feed.limits.maxQueuedBytes` waiting for its socket (its browser reconnects and starts again
 * from a snapshot). Each address may hold `feed.limits.perAddress` connections (429 past it), the
 * process `feed.limits.total` (503).
 */
export function availabilityStream(feed: AvailabilityFeed, request: Request, clientAddress: string): Response {
  // Shutting down: the browser is asked to come back in two seconds (to this server's successor).
  if (feed.closed) return new Response("retry: 2000\n\n", { headers: streamHeaders });
  const admission = feed.admit(clientAddress);
  if (!admission.admitted) {
    return new Response(admission.message, {
      status: admission.status,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "no-store",
        "Retry-After": String(admission.retryAfterSeconds),
      },
    });
  }
  let cleanup = () => admission.release();

  // The queue counts bytes: it fills only when the response's socket stops taking them (React
  // Router's adapter reads the next chunk once the socket has drained), so `desiredSize` is what
  // is left before this visitor is too far behind.
  const stream = new ReadableStream<Uint8Array>(
    {
      async start(controller) {
        let ended = false;
        const send = ({ bytes, message }: FeedFrame) => {
          if (ended) return;
          // The first snapshot always goes, however many events it holds; what follows must fit.
          const snapshot = message?.type === "availability";
          if (!snapshot && (controller.desiredSize ?? 0) < bytes.byteLength) return drop();
          try {
            controller.enqueue(bytes);
          } catch {
            end();
          }
        };
        // What waits is let go at once, and the adapter closes the socket.
        const drop = () => {
          if (ended) return;
          feed.dropped++;
          cleanup();
          controller.error(new Error("The visitor did not keep up with the live feed."));
        };
        const end = () => {
          if (ended) return;
          cleanup();
          try {
            controller.close();
          } catch {
            // already closed by the visitor
          }
        };
        const unregister = feed.onClose(end);
        let unsubscribe = () => {};
        cleanup = () => {
          ended = true;
          admission.release();
          unsubscribe();
          unregister();
        };
        request.signal.addEventListener("abort", end);
        send(retryFrame);
        try {
          unsubscribe = await feed.subscribe(send);
        } catch (error) {
          cleanup();
          throw error;
        }
        if (ended) unsubscribe();
      },
      cancel() {
        cleanup();
      },
    },
    { highWaterMark: feed.limits.maxQueuedBytes, size: (chunk) => chunk.byteLength },
  );

  return new Response(stream, { headers: streamHeaders });
}
