import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";

// The site's log (docs/decisions/024-bad-input.md): one JSON object per line, on standard output
// (requests) and standard error (errors). A request's line and the errors it met carry the same
// request id, which is also the X-Request-Id header the visitor gets back; an unexpected error's
// reference, the one a visitor may quote, is the first eight characters of that id.
// Nothing personal goes in: no query strings, bodies, cookies or authorization, and e-mail
// addresses in an error's text are blanked.

/** What the log knows about the request being answered. */
export interface RequestContext {
  id: string;
}

// One store per process, even when the server's own code and the bundled site each load this file.
const storeKey = Symbol.for("kilele.requestContext");
const requests: AsyncLocalStorage<RequestContext> = ((globalThis as Record<symbol, unknown>)[storeKey] ??=
  new AsyncLocalStorage<RequestContext>()) as AsyncLocalStorage<RequestContext>;

/** A new request id: 16 upper-case hexadecimal characters. */
export function newRequestId() {
  return crypto.randomBytes(8).toString("hex").toUpperCase();
}

/** Runs `work` as part of the request with this id, so that what it logs carries the id. */
export function withRequest<T>(context: RequestContext, work: () => T): T {
  return requests.run(context, work);
}

/** The id of the request being answered, if any. */
export function currentRequestId(): string | undefined {
  return requests.getStore()?.id;
}

const emailAddress = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[a-z]{2,}/gi;

/** Text for the log with any e-mail address blanked (a database error may quote the row it refused). */
export function withoutAddresses(text: string) {
  return text.replace(emailAddress, "[e-mail]");
}

/** A request's path for the log: never its query string, and no invitation's secret token. */
export function loggedPath(url: string) {
  const path = url.split("?")[0]!.split("#")[0]!;
  return path.replace(/^\/admin\/join\/[^/]+/, "/admin/join/[token]");
}

function logTime() {
  // eslint-disable-next-line no-restricted-syntax -- a log line's time is the machine's, not a rule's
  return new Date().toISOString();
}

// Information lines (a line for every request) are gathered and written together once per turn of
// the event loop: under load that is one write for hundreds of lines instead of one each, which
// took an eighth of a busy process's time and let its memory grow with the writes waiting
// (docs/performance.md). Errors are written at once. What is gathered is written at exit too.
const stdoutKey = Symbol.for("kilele.pendingLogLines");
interface PendingLines {
  lines: string[];
  scheduled: boolean;
}
const pending: PendingLines = ((globalThis as Record<symbol, unknown>)[stdoutKey] ??= (() => {
  const state: PendingLines = { lines: [], scheduled: false };
  process.once("exit", () => writePending(state));
  return state;
})()) as PendingLines;

// One of several processes on one output (decision 047): each line names its process, and what is
// gathered goes out in writes of at most 4,096 bytes, which a pipe keeps whole, so no line is ever
// cut by another process's.
let oneOf: string | undefined;
const sharedOutputWrite = 4_096;

function writePending(state: PendingLines) {
  state.scheduled = false;
  if (state.lines.length === 0) return;
  const lines = state.lines;
  state.lines = [];
  if (!oneOf) {
    console.log(lines.join("\n"));
    return;
  }
  let chunk: string[] = [];
  let size = 0;
  for (const line of lines) {
    const bytes = Buffer.byteLength(line) + 1;
    if (chunk.length > 0 && size + bytes > sharedOutputWrite) {
      console.log(chunk.join("\n"));
      chunk = [];
      size = 0;
    }
    chunk.push(line);
    size += bytes;
  }
  console.log(chunk.join("\n"));
}

/** Names this process on every log line from now on: "2 of 4", one of several (server/processes.ts); undefined, none. */
export function nameThisProcess(label: string | undefined) {
  oneOf = label;
}

/** Writes one log line: `fields` as a JSON object, with its time and level. */
export function logLine(level: "info" | "error", fields: Record<string, unknown>) {
  const line = JSON.stringify({ time: logTime(), level, ...(oneOf && { process: oneOf }), ...fields });
  if (level === "error") {
    // What came before it goes first.
    writePending(pending);
    console.error(line);
    return;
  }
  pending.lines.push(line);
  if (!pending.scheduled) {
    pending.scheduled = true;
    setImmediate(() => writePending(pending));
  }
}

function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return {
      name: error.name,
      message: withoutAddresses(error.message),
      ...(error.stack && { stack: withoutAddresses(error.stack) }),
      ...(error.cause !== undefined && { cause: describeError(error.cause) }),
    };
  }
  return { message: withoutAddresses(String(error)) };
}

/**
 * Logs an error nobody planned for, with the request it happened in, and returns the reference a
 * visitor is shown: the request id's first eight characters (or eight of its own outside a request).
 */
export function logUnexpectedError(error: unknown, where: string): string {
  const requestId = currentRequestId();
  const ref = (requestId ?? newRequestId()).slice(0, 8);
  const described = describeError(error);
  logLine("error", {
    msg: "unexpected error",
    ref,
    ...(requestId && { requestId }),
    where,
    error: described,
  });
  const noted: NotedError = { ref, requestId, where, message: String(described.message).slice(0, 500) };
  for (const listener of errorListeners) {
    try {
      listener(noted);
    } catch {
      // A listener that fails must not turn one error into two; the line above has it.
    }
  }
  return ref;
}

/** An unexpected error as the site keeps it (app/infra/signals.server.ts): no stack, no address. */
export interface NotedError {
  ref: string;
  requestId: string | undefined;
  where: string;
  message: string;
}

const errorListeners = new Set<(error: NotedError) => void>();

/** Tells `listener` of each unexpected error this process logs; returns the call that stops it. */
export function onUnexpectedError(listener: (error: NotedError) => void): () => void {
  errorListeners.add(listener);
  return () => errorListeners.delete(listener);
}
