import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { Field } from "~/components/ui/field";
import { doorCacheName } from "~/lib/door-offline";
import { londonTime } from "~/lib/london-time";
import {
  deviceName,
  findTicket,
  loadDoorState,
  newerList,
  saveDoorState,
  ticketsWithQueue,
  type DoorState,
  type QueuedCheckIn,
} from "../door-store";
import type { CheckInResult, DoorConflict, DoorList, DoorTicket } from "../schema";
import { QrScanner } from "./qr-scanner";

// The door: a page for a phone held at a dark door. Staff type or scan a booking and the answer
// fills the screen. Everything works from the list kept on the phone, so a hall with no signal
// only delays sending: check-ins wait in a queue and go when the network returns. While online
// the page asks the server for the list every second, so other phones' check-ins show within two.

const syncEveryMs = 1000;

type Answer =
  | { kind: "ticket"; bookingRef: string; checkedInHere: boolean }
  | { kind: "not-found"; typed: string }
  | { kind: "unreadable"; typed: string };

type Connection = "starting" | "online" | "offline" | "signed-out";

function plural(count: number, one: string, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

export function DoorPage({ initial, staffEmail, lookUp }: { initial: DoorList; staffEmail: string; lookUp?: string }) {
  const eventId = initial.event.id;
  const [state, setState] = useState<DoorState>({ list: initial, queue: [] });
  const stateRef = useRef(state);
  const [connection, setConnection] = useState<Connection>("starting");
  const [answer, setAnswer] = useState<Answer>();
  const [scanning, setScanning] = useState(false);
  const [device, setDevice] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const answerHeading = useRef<HTMLHeadingElement>(null);
  const wake = useRef<() => void>(() => undefined);

  const update = useCallback((change: (current: DoorState) => DoorState) => {
    const next = change(stateRef.current);
    stateRef.current = next;
    setState(next);
    saveDoorState(localStorage, next);
  }, []);

  // The phone's copy (with any check-ins still waiting) joins the page's own list.
  useEffect(() => {
    setDevice(deviceName(localStorage));
    const stored = loadDoorState(localStorage, eventId);
    update((current) => ({
      list: stored ? newerList(stored.list, current.list) : current.list,
      queue: stored?.queue ?? current.queue,
    }));
  }, [eventId, update]);

  // Keep this page, its scripts and the QR decoder on the phone, for a hall with no signal.
  useEffect(() => {
    void keepForOffline();
  }, []);

  // Send what waits, then fetch the list; again every second.
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let running = false;
    const url = `/api/admin/events/${eventId}/check-ins`;
    const tick = async () => {
      if (running || stopped) return;
      running = true;
      clearTimeout(timer);
      try {
        const queue = stateRef.current.queue;
        if (queue.length > 0) {
          const response = await fetch(url, {
            method: "POST",
            headers: { "Content-Type": "application/json", Accept: "application/json" },
            body: JSON.stringify({ checkIns: queue.map(({ by: _by, ...request }) => request) }),
          });
          if (response.status === 401) throw new SignedOut();
          if (response.ok) {
            const { results } = (await response.json()) as { results: CheckInResult[] };
            const answered = new Set(results.map((result) => result.id));
            update((current) => ({ ...current, queue: current.queue.filter((item) => !answered.has(item.id)) }));
          } else if (response.status === 400) {
            // A check-in the server cannot read would block the queue for ever: drop it, say so.
            console.error("The server refused the waiting check-ins:", await response.text());
            const refused = new Set(queue.map((item) => item.id));
            update((current) => ({ ...current, queue: current.queue.filter((item) => !refused.has(item.id)) }));
          } else throw new Error(`HTTP ${response.status}`);
        }
        const response = await fetch(url, { headers: { Accept: "application/json" } });
        if (response.status === 401) throw new SignedOut();
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const list = (await response.json()) as DoorList;
        update((current) => ({ ...current, list: newerList(list, current.list) }));
        setConnection("online");
      } catch (error) {
        setConnection(error instanceof SignedOut ? "signed-out" : "offline");
      } finally {
        running = false;
        if (!stopped) timer = setTimeout(() => void tick(), syncEveryMs);
      }
    };
    wake.current = () => void tick();
    void tick();
    const onOnline = () => void tick();
    const onOffline = () => setConnection("offline");
    window.addEventListener("online", onOnline);
    window.addEventListener("offline", onOffline);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener("online", onOnline);
      window.removeEventListener("offline", onOffline);
    };
  }, [eventId, update]);

  const tickets = ticketsWithQueue(state);

  const show = useCallback(
    (next: Answer) => {
      setAnswer(next);
      setScanning(false);
      // The answer is read out, and a valid ticket's Check in button is one Enter away.
      requestAnimationFrame(() => answerHeading.current?.focus());
    },
    [setAnswer],
  );

  const lookUpTyped = useCallback(
    (typed: string) => {
      const text = typed.trim();
      if (!text) return;
      const ticket = findTicket(ticketsWithQueue(stateRef.current), text);
      if (ticket) return show({ kind: "ticket", bookingRef: ticket.bookingRef, checkedInHere: false });
      show(
        /[0-9a-f]{8}/i.test(text.replace(/[\s-]/g, ""))
          ? { kind: "not-found", typed: text }
          : { kind: "unreadable", typed: text },
      );
    },
    [show],
  );

  // Opened from a receipt's QR code (or a link with ?ref=): answer at once.
  useEffect(() => {
    if (lookUp) lookUpTyped(lookUp);
  }, [lookUp, lookUpTyped]);

  function onLookUp(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    lookUpTyped(input.current?.value ?? "");
  }

  function checkIn(ticket: DoorTicket, count: number) {
    const request: QueuedCheckIn = {
      id: crypto.randomUUID(),
      bookingRef: ticket.bookingRef,
      count,
      // The moment staff let them in, by the phone's clock: it may be offline, and this is the
      // time the check-in record keeps as "when".
      // eslint-disable-next-line no-restricted-syntax
      scannedAt: new Date().toISOString(),
      device: device || "door",
      by: staffEmail,
    };
    update((current) => ({ ...current, queue: [...current.queue, request] }));
    show({ kind: "ticket", bookingRef: ticket.bookingRef, checkedInHere: true });
    wake.current();
  }

  function next() {
    setAnswer(undefined);
    if (input.current) input.current.value = "";
    // The form shows again on the next render; then the cursor waits in it for the next booking.
    requestAnimationFrame(() => input.current?.focus());
  }

  const people = tickets.filter((t) => !t.refunded).reduce((sum, t) => sum + t.quantity, 0);
  const inside = tickets.filter((t) => !t.refunded).reduce((sum, t) => sum + t.checkedIn, 0);
  const waiting = state.queue.length;

  return (
    <div className="door">
      <ConnectionLine connection={connection} waiting={waiting} device={device} />
      <p className="door-totals">
        {inside} of {plural(people, "person", "people")} checked in
      </p>

      {scanning ? <QrScanner onCode={(text) => lookUpTyped(text)} onClose={() => setScanning(false)} /> : null}

      {answer ? (
        <AnswerPanel
          answer={answer}
          ticket={answer.kind === "ticket" ? tickets.find((t) => t.bookingRef === answer.bookingRef) : undefined}
          headingRef={answerHeading}
          onCheckIn={checkIn}
          onNext={next}
        />
      ) : null}

      <form className="door-lookup" onSubmit={onLookUp} hidden={Boolean(answer) || scanning}>
        <Field
          id="door-reference"
          label="Booking reference"
          hint="The reference or the 8-character code on the receipt, e.g. 3F9A-1C2B."
          input={{
            ref: input,
            name: "reference",
            autoComplete: "off",
            autoCapitalize: "characters",
            spellCheck: false,
            enterKeyHint: "go",
            autoFocus: true,
          }}
        />
        <div className="door-lookup-actions">
          <button type="submit" className="button">
            Check
          </button>
          <button type="button" className="button button-secondary" onClick={() => setScanning(true)}>
            Scan QR code
          </button>
        </div>
      </form>

      <Conflicts conflicts={state.list.conflicts} />
    </div>
  );
}

class SignedOut extends Error {}

/**
 * Registers the door's service worker (public/door-sw.js), which opens door pages from its cache
 * when the network fails, and puts this page and everything it loaded into that cache now: the
 * page was loaded before the worker was there to see it.
 */
async function keepForOffline() {
  if (!("serviceWorker" in navigator) || typeof caches === "undefined") return;
  try {
    await navigator.serviceWorker.register("/door-sw.js", { scope: "/admin/check-in/" });
    // Scanning must work offline too: load the decoder now, while there is a network.
    await import("jsqr");
    const own = (href: string) => {
      const url = new URL(href, location.href);
      return url.origin === location.origin && url.pathname.startsWith("/assets/") ? url.href : undefined;
    };
    const assets = new Set(
      [
        ...performance.getEntriesByType("resource").map((entry) => entry.name),
        ...Array.from(document.querySelectorAll<HTMLLinkElement>("link[href]"), (link) => link.href),
        ...Array.from(document.querySelectorAll<HTMLScriptElement>("script[src]"), (script) => script.src),
      ]
        .map(own)
        .filter((href): href is string => Boolean(href)),
    );
    const cache = await caches.open(doorCacheName);
    await cache.addAll([...assets]);
    const page = await fetch(location.pathname, { credentials: "same-origin" });
    if (page.ok && !page.redirected) await cache.put(location.origin + location.pathname, page);
  } catch (error) {
    // Without it the page still works while it stays open; it just cannot be reopened offline.
    console.warn("The door page could not be kept for offline use:", error);
  }
}

function ConnectionLine({ connection, waiting, device }: { connection: Connection; waiting: number; device: string }) {
  const queue = waiting === 0 ? "every check-in is sent" : `${plural(waiting, "check-in")} waiting to be sent`;
  const text = {
    starting: "Connecting…",
    online: `Online: ${queue}.`,
    offline: `Offline: check-ins are kept on this phone and sent when the network returns; ${queue}.`,
    "signed-out": `Signed out: sign in again to send check-ins; ${queue}.`,
  }[connection];
  return (
    <div className={`door-connection door-connection-${connection}`}>
      <p role="status">{text}</p>
      {connection === "signed-out" ? (
        <p>
          <a
            href={`/admin/sign-in?next=${encodeURIComponent(typeof location === "undefined" ? "/admin/check-in" : location.pathname)}`}
          >
            Sign in again
          </a>
        </p>
      ) : null}
      {device ? <p className="door-device">This phone: {device}</p> : null}
    </div>
  );
}

function AnswerPanel({
  answer,
  ticket,
  headingRef,
  onCheckIn,
  onNext,
}: {
  answer: Answer;
  ticket: DoorTicket | undefined;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  onCheckIn: (ticket: DoorTicket, count: number) => void;
  onNext: () => void;
}) {
  const [count, setCount] = useState("");
  let tone: "valid" | "used" | "refused";
  let title: string;
  let body: React.ReactNode;
  let action: React.ReactNode = null;

  if (answer.kind === "unreadable") {
    tone = "refused";
    title = "Not found";
    body = (
      <p>“{answer.typed}” is not a booking reference. Type the reference or the 8-character code on the receipt.</p>
    );
  } else if (answer.kind === "not-found" || !ticket) {
    tone = "refused";
    title = "Not found";
    body = <p>No booking for this event has the reference {answer.kind === "not-found" ? answer.typed : ""}.</p>;
  } else {
    const remaining = ticket.quantity - ticket.checkedIn;
    const last = ticket.last ? `${londonTime(ticket.last.at)} by ${ticket.last.by}` : null;
    if (ticket.refunded) {
      tone = "refused";
      title = "Refunded";
      body = <p>This booking was refunded: it does not admit anyone.</p>;
    } else if (remaining <= 0 && !answer.checkedInHere) {
      tone = "used";
      title = "Already checked in";
      body = last ? <p>Checked in at {last}.</p> : null;
    } else {
      tone = "valid";
      title = "Valid";
      body = answer.checkedInHere && last ? <p>Checked in at {last}.</p> : null;
      if (remaining > 0) {
        const chosen = Number(count || remaining);
        const valid = Number.isInteger(chosen) && chosen >= 1 && chosen <= remaining;
        action = (
          <form
            className="door-check-in"
            onSubmit={(event) => {
              event.preventDefault();
              if (valid) {
                onCheckIn(ticket, chosen);
                setCount("");
              }
            }}
          >
            {ticket.quantity > 1 ? (
              <Field
                id="door-count"
                label="How many are coming in now?"
                input={{
                  type: "number",
                  inputMode: "numeric",
                  min: 1,
                  max: remaining,
                  value: count || String(remaining),
                  onChange: (event) => setCount(event.target.value),
                }}
                error={valid ? undefined : `Between 1 and ${remaining}.`}
              />
            ) : null}
            <button type="submit" className="button door-button" disabled={!valid}>
              Check in {valid && ticket.quantity > 1 ? chosen : ""}
            </button>
          </form>
        );
      }
    }
    body = (
      <>
        <p className="door-answer-name">{ticket.name}</p>
        <p className="door-answer-count">
          {ticket.checkedIn} of {ticket.quantity} checked in
        </p>
        <p className="door-answer-code">Booking {ticket.code}</p>
        {body}
      </>
    );
  }

  return (
    <section className={`door-answer door-answer-${tone}`} aria-labelledby="door-answer-title">
      <h2 id="door-answer-title" ref={headingRef} tabIndex={-1} aria-live="assertive">
        {title}
      </h2>
      {body}
      {action}
      <button type="button" className="button button-secondary door-button" onClick={onNext}>
        Next
      </button>
    </section>
  );
}

function Conflicts({ conflicts }: { conflicts: DoorConflict[] }) {
  if (conflicts.length === 0) return null;
  return (
    <section className="door-conflicts" aria-labelledby="door-conflicts-title">
      <h2 id="door-conflicts-title">Conflicts ({conflicts.length})</h2>
      <p>These check-ins reached the server after the places had gone. Look at the people concerned.</p>
      <ul>
        {conflicts.map((conflict) => (
          <li key={conflict.id}>
            <strong>
              {conflict.name} ({conflict.code})
            </strong>
            : {plural(conflict.count, "place")} checked in at {londonTime(conflict.at)} by {conflict.by} on{" "}
            {conflict.device},{" "}
            {conflict.outcome === "refunded"
              ? "but the booking had been refunded."
              : `but ${conflict.earlier
                  .map(
                    (e) =>
                      `${plural(e.count, "place")} had been checked in at ${londonTime(e.at)} by ${e.by} on ${e.device}`,
                  )
                  .join(", and ")}.`}
          </li>
        ))}
      </ul>
    </section>
  );
}
