// A load generator for the live-feed benchmark (scripts/bench/feed.ts), run as a child process:
// it opens its share of the subscriptions to `/api/live/availability` over plain sockets (an HTTP
// client per connection would cost this process more than the server it measures), notes when each
// subscription's snapshot arrived, and for each connection the moment it first saw the watched
// event's `sold` count reach each value. It talks to its parent over the fork's IPC channel.
import net from "node:net";

export type ToSubscribers =
  | {
      type: "open";
      host: string;
      port: number;
      count: number;
      /** This process's first subscriber's number: each subscriber is a visitor of its own address. */
      first: number;
      /** The event whose `sold` count is watched. */
      eventId: string;
      /** Connections opening at once (the rest wait), so the server's accept queue never overflows. */
      atOnce: number;
    }
  | { type: "arrivals"; sold: number }
  | { type: "close" };

export type FromSubscribers =
  | { type: "opened"; open: number; statuses: Record<string, number>; failed: number; ms: number }
  /** When the open subscribers that have seen `sold` saw it, and how many open ones have not yet. */
  | { type: "arrivals"; sold: number; times: number[]; waiting: number; cpuMs: number };

/** Wall-clock milliseconds with a fraction, comparable between processes on one machine. */
const wallClock = () => performance.timeOrigin + performance.now();

interface Subscriber {
  socket: net.Socket;
  text: string;
  status: number;
  ready: boolean;
  closed: boolean;
}

const send = (message: FromSubscribers) => process.send!(message);
const frameEnd = Buffer.from("\n\n\r\n");
const subscribers: Subscriber[] = [];
/** Answers' statuses, and connections that failed before any answer, over every `open`. */
const statuses: Record<string, number> = {};
let failed = 0;
/** For each `sold` value seen: when each subscriber first saw it (NaN: not yet). */
const seen = new Map<number, Float64Array>();

function sawSold(index: number, sold: number, at: number) {
  let times = seen.get(sold);
  if (!times) seen.set(sold, (times = new Float64Array(subscribers.length).fill(NaN)));
  if (Number.isNaN(times[index]!)) times[index] = at;
}

async function open(message: Extract<ToSubscribers, { type: "open" }>) {
  const started = wallClock();
  const soldKey = Buffer.from(`"${message.eventId}":{"sold":`);
  let pending = 0;
  let wake: (() => void) | undefined;
  const settled = () => {
    pending--;
    wake?.();
  };

  for (let i = 0; i < message.count; i++) {
    while (pending >= message.atOnce) await new Promise<void>((resolve) => (wake = resolve));
    pending++;
    const n = message.first + i;
    const index = subscribers.length;
    const socket = net.connect({ host: message.host, port: message.port });
    const subscriber: Subscriber = { socket, text: "", status: 0, ready: false, closed: false };
    subscribers.push(subscriber);
    socket.setNoDelay(true);
    socket.once("connect", () =>
      socket.write(
        `GET /api/live/availability HTTP/1.1\r\nHost: ${message.host}:${message.port}\r\n` +
          `Accept: text/event-stream\r\nX-Forwarded-For: 198.18.${n >> 8}.${n & 255}\r\n\r\n`,
      ),
    );
    // Until the snapshot, the text is kept and read whole; after it, each chunk is searched as bytes
    // for the watched count (this process's own work per update is part of what is measured).
    let tail: Buffer | undefined;
    socket.on("data", (data: Buffer) => {
      const at = wallClock();
      if (subscriber.ready) {
        const bytes = tail ? Buffer.concat([tail, data]) : data;
        // A chunk of the stream ends with its frame's blank line and the chunk's CRLF.
        if (
          bytes.length < frameEnd.length ||
          bytes.compare(frameEnd, 0, frameEnd.length, bytes.length - frameEnd.length) !== 0
        ) {
          tail = bytes;
          return;
        }
        tail = undefined;
        for (let at0 = bytes.indexOf(soldKey); at0 >= 0; at0 = bytes.indexOf(soldKey, at0 + soldKey.length)) {
          let sold = 0;
          for (let i = at0 + soldKey.length; bytes[i]! >= 0x30 && bytes[i]! <= 0x39; i++)
            sold = sold * 10 + bytes[i]! - 0x30;
          sawSold(index, sold, at);
        }
        return;
      }
      subscriber.text += data.toString("utf8");
      if (subscriber.status === 0) {
        const head = subscriber.text.indexOf("\r\n\r\n");
        if (head < 0) return;
        subscriber.status = Number(subscriber.text.slice(9, 12));
        statuses[subscriber.status] = (statuses[subscriber.status] ?? 0) + 1;
        subscriber.text = subscriber.text.slice(head + 4);
        if (subscriber.status !== 200) {
          socket.destroy();
          return;
        }
      }
      let end;
      while ((end = subscriber.text.indexOf("\n\n")) >= 0) {
        const block = subscriber.text.slice(0, end);
        subscriber.text = subscriber.text.slice(end + 2);
        if (!subscriber.ready && block.includes("event: availability\n")) {
          subscriber.ready = true;
          subscriber.text = "";
          settled();
        }
      }
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      subscriber.closed = true;
      if (!subscriber.ready) {
        if (subscriber.status === 0) failed++;
        subscriber.ready = true;
        settled();
      }
    });
  }
  while (pending > 0) await new Promise<void>((resolve) => (wake = resolve));
  const ready = subscribers.filter((s) => s.status === 200 && !s.closed).length;
  send({ type: "opened", open: ready, statuses, failed, ms: Math.round(wallClock() - started) });
}

process.on("message", (message: ToSubscribers) => {
  if (message.type === "open") void open(message);
  if (message.type === "arrivals") {
    const seenAt = seen.get(message.sold);
    const times: number[] = [];
    let waiting = 0;
    subscribers.forEach((subscriber, i) => {
      const at = seenAt?.[i] ?? NaN;
      if (!Number.isNaN(at)) times.push(at);
      else if (subscriber.status === 200 && !subscriber.closed) waiting++;
    });
    const cpu = process.cpuUsage();
    send({ type: "arrivals", sold: message.sold, times, waiting, cpuMs: (cpu.user + cpu.system) / 1000 });
  }
  if (message.type === "close") {
    for (const subscriber of subscribers) subscriber.socket.destroy();
    process.exit(0);
  }
});
