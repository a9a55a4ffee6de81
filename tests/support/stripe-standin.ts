import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  form: URLSearchParams;
  /** The query string (a GET's parameters, such as `expand[0]`). */
  query: URLSearchParams;
}

/**
 * A local stand-in for Stripe's API, at its HTTP boundary: it records what our Stripe adapter
 * sends and answers like Stripe would for the calls we make. Tests set an intent's status.
 */
export class StripeStandIn {
  readonly requests: RecordedRequest[] = [];
  readonly intents = new Map<string, Record<string, unknown>>();
  /** The charges of succeeded intents, each with the card that paid it. */
  readonly charges = new Map<string, Record<string, unknown>>();
  /** The refunds made, one per idempotency key. */
  readonly refunds: { id: string; amount: number; _idempotencyKey: string }[] = [];
  private server: http.Server | undefined;

  private next = 1;
  url = "";

  /** `clock`: the test's clock, for the time a charge is taken when a test does not say. */
  constructor(private readonly clock?: { now(): Date }) {}

  async start() {
    this.server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const form = new URLSearchParams(body);
        const [path = "", search = ""] = (req.url ?? "").split("?");
        const query = new URLSearchParams(search);
        this.requests.push({ method: req.method ?? "", path, headers: req.headers, form, query });
        const reply = (status: number, json: unknown) => {
          res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${this.next}` });
          res.end(JSON.stringify(json));
        };
        if (req.method === "POST" && path === "/v1/payment_intents") {
          const key = String(req.headers["idempotency-key"] ?? "");
          const existing = [...this.intents.values()].find((i) => i._idempotencyKey === key);
          if (existing) return reply(200, existing);
          const id = `pi_test_${this.next++}`;
          const metadata: Record<string, string> = {};
          for (const [k, v] of form) {
            const m = /^metadata\[(.+)\]$/.exec(k);
            if (m) metadata[m[1]!] = v;
          }
          const intent = {
            id,
            object: "payment_intent",
            amount: Number(form.get("amount")),
            currency: form.get("currency"),
            description: form.get("description"),
            receipt_email: form.get("receipt_email"),
            status: "requires_payment_method",
            client_secret: `${id}_secret_test`,
            latest_charge: null,
            metadata,
            _idempotencyKey: key,
          };
          this.intents.set(id, intent);
          return reply(200, intent);
        }
        const answerIntent = (match: RegExpExecArray) => {
          const intent = this.intents.get(match[1]!);
          if (!intent)
            return reply(404, { error: { type: "invalid_request_error", message: "No such payment_intent" } });
          if (match[2]) {
            // As Stripe: a payment that succeeded, or is being processed, cannot be cancelled.
            if (intent.status === "succeeded" || intent.status === "processing") {
              return reply(400, {
                error: {
                  type: "invalid_request_error",
                  code: "payment_intent_unexpected_state",
                  message: `You cannot cancel this PaymentIntent because it has a status of ${String(intent.status)}.`,
                },
              });
            }
            intent.status = "canceled";
          }
          // As Stripe: `expand[]=latest_charge` gives the charge object in place of its id.
          const expand = [...query].filter(([k]) => /^expand\[\d*\]$/.test(k)).map(([, v]) => v);
          const charge = typeof intent.latest_charge === "string" ? this.charges.get(intent.latest_charge) : undefined;
          if (expand.includes("latest_charge") && charge) return reply(200, { ...intent, latest_charge: charge });
          return reply(200, intent);
        };
        const intentMatch = /^\/v1\/payment_intents\/([^/]+)(\/cancel)?$/.exec(path);
        if (intentMatch && req.method === "GET" && this.readsHeld) {
          void this.readsHeld.then(() => answerIntent(intentMatch));
          return;
        }
        if (intentMatch) return answerIntent(intentMatch);
        if (req.method === "POST" && path === "/v1/refunds") {
          // As Stripe: the same Idempotency-Key answers the refund already made, and makes no other.
          const key = String(req.headers["idempotency-key"] ?? "");
          const earlier = key ? this.refunds.find((r) => r._idempotencyKey === key) : undefined;
          if (earlier) return reply(200, earlier);
          const intent = this.intents.get(String(form.get("payment_intent")));
          const refund = {
            id: `re_${this.next++}`,
            object: "refund",
            payment_intent: form.get("payment_intent"),
            amount: Number(form.get("amount") ?? intent?.amount ?? 0),
            status: "succeeded",
            _idempotencyKey: key,
          };
          this.refunds.push(refund);
          return reply(200, refund);
        }
        reply(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${path})` } });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", () => resolve()));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  private readsHeld: Promise<void> | undefined;

  /** Makes every PaymentIntent read wait until the returned function is called: a slow provider. */
  holdReads(): () => void {
    let release = () => {};
    this.readsHeld = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.readsHeld = undefined;
      release();
    };
  }

  /** Settings for our Stripe adapter that point it at this stand-in. */
  settings() {
    return { secretKey: "sk_test_x", publishableKey: "pk_test_x", webhookSecret, apiUrl: this.url };
  }

  /**
   * Sets an intent's status. Succeeding charges the card (a Visa ending 4242 unless told), as
   * Stripe's test card does: the intent's `latest_charge` then names the charge, which carries the card
   * and, as `created` (whole seconds), when it was taken: `at`, or the time of the clock it was given.
   */
  setStatus(
    id: string,
    status: string,
    card: { brand: string; last4: string } = { brand: "visa", last4: "4242" },
    at: Date = this.clock?.now() ?? new Date(),
  ) {
    const intent = this.intents.get(id)!;
    intent.status = status;
    if (status !== "succeeded" || intent.latest_charge) return;
    const charge = {
      id: `ch_test_${this.next++}`,
      object: "charge",
      created: Math.floor(at.getTime() / 1000),
      amount: intent.amount,
      currency: intent.currency,
      payment_intent: id,
      paid: true,
      status: "succeeded",
      payment_method_details: {
        type: "card",
        card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: 2034, funding: "credit", country: "US" },
      },
    };
    this.charges.set(charge.id, charge);
    intent.latest_charge = charge.id;
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/** The webhook signing secret the tests configure. */
export const webhookSecret = "whsec_test_secret";

/** A webhook delivery as Stripe sends it, signed with `secret` (a wrong one makes a forgery). */
export function signedDelivery(event: object, secret = webhookSecret) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return new Request("http://localhost/api/payments/webhook", {
    method: "POST",
    headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
    body: payload,
  });
}

/** Stripe's payment_intent.succeeded event for a payment. */
export function succeeded(eventId: string, paymentId: string) {
  return {
    id: eventId,
    object: "event",
    type: "payment_intent.succeeded",
    data: { object: { id: paymentId, object: "payment_intent" } },
  };
}
