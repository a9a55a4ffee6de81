import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { Field } from "~/components/ui/field";
import { onlyPlainTickets, ticketsInWords } from "~/lib/booking-items";
import { doorCacheName } from "~/lib/door-offline";
import { londonTime } from "~/lib/london-time";
import {
  deviceName,
  findByName,
  findTicket,
  looksLikeEmail,
  loadDoorState,
  newerList,
  saveDoorState,
  ticketsWithQueue,
  type DoorState,
  type QueuedCheckIn,
} from "../door-store";
import type { CheckInResult, DoorConflict, DoorList, DoorTicket } from "../schema";
import { QrScanner } from "./qr-scanner";

// The door: a page for a phone held at a dark door. Staff type a name or a code, or scan, and the
// answer fills the screen. Everything but an e-mail search works from the list kept on the phone,
// so a hall with no signal only delays sending: check-ins wait in a queue and go when the network
// returns. While online the page asks the server for the list every second, so other phones'
// check-ins show within two.

const syncEveryMs = 1000;

type Answer =
  /** One booking; `letIn` is how many were checked in here just now, when they were. */
  | { kind: "ticket"; bookingRef: string; letIn?: number }
  /** Several bookings match a name or e-mail: staff choose one. */
  | { kind: "choose"; typed: string; bookingRefs: string[] }
  /** Waiting for the server to search e-mail addresses. */
  | { kind: "searching"; typed: string }
  | { kind: "not-found"; typed: string; offline?: boolean };

type Connection = "starting" | "online" | "offline" | "signed-out";

function plural(count: number, one: string, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * "2 × Adult, 1 × Child": what a booking's tickets are (decision 082); null for one of an event sold
 * at one price, or from a list kept on the phone before types, where the number says it all.
 */
function typesInWords(ticket: DoorTicket): string | null {
  const types = ticket.types ?? [];
  return types.length > 0 && !onlyPlainTickets(types) ? ticketsInWords(types) : null;
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
    // A check-in made while a sync is under way is sent as soon as that sync ends, not a second
    // later: other phones at the door see it within two seconds.
    let again = false;
    const url = `/api/admin/events/${eventId}/check-ins`;
    const tick = async () => {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      running = true;
      again = false;
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
        if (!stopped) timer = setTimeout(() => void tick(), again ? 0 : syncEveryMs);
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

  const focusAnswer = useRef(false);
  const show = useCallback(
    (next: Answer) => {
      focusAnswer.current = true;
      setAnswer(next);
      setScanning(false);
    },
    [setAnswer],
  );
  // Once the answer is drawn, it takes the focus: it is read out, and a valid ticket's Check in
  // button is one Tab away.
  useEffect(() => {
    if (!answer || !focusAnswer.current) return;
    focusAnswer.current = false;
    answerHeading.current?.focus();
  }, [answer]);

  // A code or a name is found in the list on the phone (so offline too); an e-mail address, which
  // the phone does not keep, is asked of the server (decision 077).
  const lookUpTyped = useCallback(
    async (typed: string) => {
      const text = typed.trim();
      if (!text) return;
      const tickets = ticketsWithQueue(stateRef.current);
      const ticket = findTicket(tickets, text);
      if (ticket) return show({ kind: "ticket", bookingRef: ticket.bookingRef });
      let found: string[];
      if (looksLikeEmail(text)) {
        setAnswer({ kind: "searching", typed: text });
        try {
          const response = await fetch(`/api/admin/events/${eventId}/guests?q=${encodeURIComponent(text)}`, {
            headers: { Accept: "application/json" },
          });
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          found = ((await response.json()) as { bookingRefs: string[] }).bookingRefs;
        } catch {
          return show({ kind: "not-found", typed: text, offline: true });
        }
      } else {
        found = findByName(tickets, text).map((t) => t.bookingRef);
      }
      if (found.length === 0) return show({ kind: "not-found", typed: text });
      if (found.length === 1) return show({ kind: "ticket", bookingRef: found[0]! });
      show({ kind: "choose", typed: text, bookingRefs: found });
    },
    [show, eventId],
  );

  // Opened from a receipt's QR code (or a link with ?ref=): answer at once.
  useEffect(() => {
    if (lookUp) void lookUpTyped(lookUp);
  }, [lookUp, lookUpTyped]);

  function onLookUp(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void lookUpTyped(input.current?.value ?? "");
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
    show({ kind: "ticket", bookingRef: ticket.bookingRef, letIn: count });
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

      {scanning ? <QrScanner onCode={(text) => void lookUpTyped(text)} onClose={() => setScanning(false)} /> : null}

      {answer?.kind === "choose" ? (
        <ChoicePanel
          typed={answer.typed}
          tickets={answer.bookingRefs
            .map((ref) => tickets.find((t) => t.bookingRef === ref))
            .filter((t): t is DoorTicket => t !== undefined)}
          headingRef={answerHeading}
          onChoose={(ticket) => show({ kind: "ticket", bookingRef: ticket.bookingRef })}
          onNext={next}
        />
      ) : answer ? (
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
          label="Name, booking code or e-mail"
          hint="Part of the name (such as Okafor), the 8-character code on the receipt (such as 3F9A-1C2B), or the e-mail address (this needs the network)."
          input={{
            ref: input,
            // Sent before the scripts run, the form asks for this page with ?ref=, which it answers.
            name: "ref",
            type: "search",
            autoComplete: "off",
            autoCapitalize: "none",
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
  answer: Exclude<Answer, { kind: "choose" }>;
  ticket: DoorTicket | undefined;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  onCheckIn: (ticket: DoorTicket, count: number) => void;
  onNext: () => void;
}) {
  const [count, setCount] = useState("");
  let tone: "valid" | "used" | "refused" | "checked-in" | "searching";
  let title: string;
  let body: React.ReactNode;
  let action: React.ReactNode = null;

  if (answer.kind === "searching") {
    tone = "searching";
    title = "Searching…";
    body = <p>Looking for “{answer.typed}” among this event&apos;s bookings.</p>;
  } else if (answer.kind === "not-found" || !ticket) {
    const typed = answer.kind === "not-found" ? answer.typed : "";
    tone = "refused";
    title = "Not found";
    body =
      answer.kind === "not-found" && answer.offline ? (
        <p>
          Finding “{typed}” by e-mail needs the network, and this phone cannot reach the site now. Try the name or the
          8-character code on the receipt instead.
        </p>
      ) : (
        <p>
          No booking for this event matches “{typed}”. Try the surname alone, the 8-character code on the receipt (such
          as 3F9A-1C2B), or the e-mail address they booked with.
        </p>
      );
  } else {
    const remaining = ticket.quantity - ticket.checkedIn;
    const last = ticket.last ? `${londonTime(ticket.last.at)} by ${ticket.last.by}` : null;
    const counted = (
      <p className="door-answer-count">
        {ticket.checkedIn} of {ticket.quantity} checked in
      </p>
    );
    let detail: React.ReactNode = null;
    if (ticket.refunded) {
      tone = "refused";
      title = "Refunded";
      detail = <p>This booking was refunded: it does not admit anyone.</p>;
    } else if (answer.letIn !== undefined) {
      // Just checked in here: the card changes colour and words, so nobody doubts the tap worked.
      tone = "checked-in";
      title = `Checked in: ${ticket.checkedIn} of ${ticket.quantity}`;
      detail = (
        <p className="door-answer-done">
          <span aria-hidden="true">✓ </span>
          {plural(answer.letIn, "person", "people")} let in{last ? ` at ${last}` : ""}.
          {remaining > 0 ? ` ${plural(remaining, "place")} still to come.` : ""}
        </p>
      );
    } else if (remaining <= 0) {
      tone = "used";
      title = "Already checked in";
      detail = (
        <>
          {counted}
          {last ? <p>Checked in at {last}.</p> : null}
        </>
      );
    } else {
      tone = "valid";
      title = "Valid";
      detail = counted;
    }
    if (!ticket.refunded && remaining > 0) {
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
    const types = typesInWords(ticket);
    body = (
      <>
        <p className="door-answer-name">{ticket.name}</p>
        {types ? <p className="door-answer-types">{types}</p> : null}
        {ticket.atDoor && ticket.atDoor.length > 0 ? (
          <ul className="door-answer-answers" aria-label="Answers for the door">
            {ticket.atDoor.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : null}
        {tone === "refused" ? counted : null}
        <p className="door-answer-code">Booking {ticket.code}</p>
        {detail}
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
      <button type="button" className="button button-secondary door-next" onClick={onNext}>
        Next
      </button>
    </section>
  );
}

/** Several bookings match a name: one button each, the name large, then what tells them apart. */
function ChoicePanel({
  typed,
  tickets,
  headingRef,
  onChoose,
  onNext,
}: {
  typed: string;
  tickets: DoorTicket[];
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  onChoose: (ticket: DoorTicket) => void;
  onNext: () => void;
}) {
  return (
    <section className="door-answer door-answer-choose" aria-labelledby="door-answer-title">
      <h2 id="door-answer-title" ref={headingRef} tabIndex={-1} aria-live="assertive">
        {plural(tickets.length, "booking")} match “{typed}”
      </h2>
      <p>Choose the guest at the door.</p>
      <ul className="door-choices">
        {tickets.map((ticket) => (
          <li key={ticket.bookingRef}>
            <button type="button" className="door-choice" onClick={() => onChoose(ticket)}>
              <span className="door-choice-name">{ticket.name}</span>
              <span className="door-choice-facts">
                {ticket.refunded
                  ? "Refunded"
                  : typesInWords(ticket)
                    ? `${typesInWords(ticket)}: ${ticket.checkedIn} of ${plural(ticket.quantity, "place")} checked in`
                    : `${plural(ticket.quantity, "ticket")}, ${ticket.checkedIn} checked in`}{" "}
                · {ticket.code}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="button button-secondary door-next" onClick={onNext}>
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
