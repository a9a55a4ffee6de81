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
        const billing = () =>
          this.answerBilling(req.method ?? "", path, form, query, String(req.headers["idempotency-key"] ?? ""), reply);
        const invoiceRead = req.method === "GET" ? /^\/v1\/invoices\/([^/]+)$/.exec(path) : null;
        if (invoiceRead && this.heldInvoiceReads) {
          const waiting = this.heldInvoiceReads.get(invoiceRead[1]!) ?? [];
          waiting.push(() => void billing());
          this.heldInvoiceReads.set(invoiceRead[1]!, waiting);
          return;
        }
        if (billing()) return;
        reply(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${path})` } });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", () => resolve()));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  // Stripe Billing, as far as monthly gifts use it (decision 089): products, customers,
  // subscriptions and their invoices. Tests pay, fail and make invoices with the methods below.
  readonly products = new Map<string, Record<string, unknown>>();
  readonly customers = new Map<string, Record<string, unknown>>();
  readonly subscriptions = new Map<string, Record<string, unknown>>();
  readonly invoices = new Map<string, Record<string, unknown>>();

  private now(): number {
    return Math.floor((this.clock?.now() ?? new Date()).getTime() / 1000);
  }

  private answerBilling(
    method: string,
    path: string,
    form: URLSearchParams,
    query: URLSearchParams,
    key: string,
    reply: (status: number, json: unknown) => void,
  ): boolean {
    const missing = (what: string) =>
      reply(404, { error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}` } });
    const metadataOf = () => {
      const metadata: Record<string, string> = {};
      for (const [k, v] of form) {
        const m = /^metadata\[(.+)\]$/.exec(k);
        if (m) metadata[m[1]!] = v;
      }
      return metadata;
    };
    const expand = [...form, ...query].filter(([k]) => /^expand\[\d*\]$/.test(k)).map(([, v]) => v);
    const product = /^\/v1\/products\/([^/]+)$/.exec(path);
    if (method === "GET" && product) {
      const found = this.products.get(product[1]!);
      return found ? (reply(200, found), true) : (missing("product"), true);
    }
    if (method === "POST" && path === "/v1/products") {
      const made = { id: form.get("id") ?? `prod_test_${this.next++}`, object: "product", name: form.get("name") };
      this.products.set(made.id, made);
      return (reply(200, made), true);
    }
    if (method === "POST" && path === "/v1/customers") {
      const earlier = [...this.customers.values()].find((c) => c._idempotencyKey === key);
      if (earlier) return (reply(200, earlier), true);
      const made = {
        id: `cus_test_${this.next++}`,
        object: "customer",
        email: form.get("email"),
        _idempotencyKey: key,
      };
      this.customers.set(made.id, made);
      return (reply(200, made), true);
    }
    if (method === "POST" && path === "/v1/subscriptions") {
      let subscription = [...this.subscriptions.values()].find((s) => s._idempotencyKey === key);
      if (!subscription) {
        const id = `sub_test_${this.next++}`;
        subscription = {
          id,
          object: "subscription",
          customer: form.get("customer"),
          status: "incomplete",
          metadata: metadataOf(),
          // Its one item and the monthly price it takes (a change of amount gives the item a new one).
          items: {
            object: "list",
            data: [
              {
                id: `si_test_${this.next++}`,
                object: "subscription_item",
                price: { unit_amount: Number(form.get("items[0][price_data][unit_amount]")) },
              },
            ],
          },
          _idempotencyKey: key,
          _form: form,
        };
        this.subscriptions.set(id, subscription);
        subscription.latest_invoice = this.makeInvoice(id, Number(form.get("items[0][price_data][unit_amount]")));
      }
      const invoice = this.invoices.get(String(subscription.latest_invoice));
      const withInvoice = expand.some((e) => e.startsWith("latest_invoice"))
        ? { ...subscription, latest_invoice: invoice }
        : subscription;
      return (reply(200, withInvoice), true);
    }
    const subscriptionPath = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (subscriptionPath) {
      const subscription = this.subscriptions.get(subscriptionPath[1]!);
      if (!subscription) return (missing("subscription"), true);
      if (method === "DELETE") {
        if (subscription.status === "canceled") {
          return (reply(400, { error: { type: "invalid_request_error", message: "Already canceled." } }), true);
        }
        subscription.status = "canceled";
      }
      if (method === "POST" && form.get("default_payment_method")) {
        subscription.default_payment_method = form.get("default_payment_method");
      }
      if (method === "POST" && form.get("items[0][price_data][unit_amount]")) {
        const item = (subscription.items as { data: { price: { unit_amount: number } }[] }).data[0]!;
        item.price = { unit_amount: Number(form.get("items[0][price_data][unit_amount]")) };
      }
      // As Stripe: `expand[]=latest_invoice...` gives the invoice object in place of its id.
      if (expand.some((e) => e.startsWith("latest_invoice"))) {
        return (
          reply(200, { ...subscription, latest_invoice: this.invoices.get(String(subscription.latest_invoice)) }),
          true
        );
      }
      return (reply(200, subscription), true);
    }
    // Bacs Direct Debit (decision 092): the account's capability, mandates and their payment
    // methods, and Checkout's setup mode for new bank details.
    if (method === "GET" && path === "/v1/account") {
      if (this.accountFails) {
        return (reply(500, { error: { type: "api_error", message: "Stripe is having a bad day." } }), true);
      }
      return (
        reply(200, { id: "acct_test", object: "account", capabilities: { bacs_debit_payments: this.bacsCapability } }),
        true
      );
    }
    const mandatePath = /^\/v1\/mandates\/([^/]+)$/.exec(path);
    if (method === "GET" && mandatePath) {
      const mandate = this.mandates.get(mandatePath[1]!);
      if (!mandate) return (missing("mandate"), true);
      const paymentMethod = this.paymentMethods.get(String(mandate.payment_method));
      return (
        reply(200, expand.includes("payment_method") ? { ...mandate, payment_method: paymentMethod } : mandate),
        true
      );
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const id = `cs_test_${this.next++}`;
      const setupId = `seti_test_${this.next++}`;
      this.setupIntents.set(setupId, {
        id: setupId,
        object: "setup_intent",
        status: "requires_payment_method",
        payment_method: null,
        mandate: null,
        metadata: {},
      });
      const session = {
        id,
        object: "checkout.session",
        mode: form.get("mode"),
        customer: form.get("customer"),
        metadata: metadataOf(),
        setup_intent: setupId,
        success_url: form.get("success_url"),
        cancel_url: form.get("cancel_url"),
        url: `https://checkout.stripe.test/c/pay/${id}`,
        _form: form,
      };
      this.sessions.set(id, session);
      return (reply(200, session), true);
    }
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === "GET" && sessionPath) {
      const session = this.sessions.get(sessionPath[1]!);
      if (!session) return (missing("checkout session"), true);
      const setup = this.setupIntents.get(String(session.setup_intent));
      return (reply(200, expand.includes("setup_intent") ? { ...session, setup_intent: setup } : session), true);
    }
    const invoicePath = /^\/v1\/invoices\/([^/]+)$/.exec(path);
    if (method === "GET" && invoicePath) {
      const invoice = this.invoices.get(invoicePath[1]!);
      return invoice ? (reply(200, invoice), true) : (missing("invoice"), true);
    }
    if (method === "GET" && path === "/v1/invoices") {
      const data = [...this.invoices.values()]
        .filter(
          (i) =>
            (i.parent as { subscription_details: { subscription: string } }).subscription_details.subscription ===
            query.get("subscription"),
        )
        .filter((i) => !query.get("status") || i.status === query.get("status"))
        .reverse();
      return (reply(200, { object: "list", data, has_more: false, url: "/v1/invoices" }), true);
    }
    return false;
  }

  readonly mandates = new Map<string, Record<string, unknown>>();
  readonly paymentMethods = new Map<string, Record<string, unknown>>();
  readonly sessions = new Map<string, Record<string, unknown>>();
  readonly setupIntents = new Map<string, Record<string, unknown>>();
  /** The account's `bacs_debit_payments` capability; `accountFails` makes GET /v1/account answer 500. */
  bacsCapability = "active";
  accountFails = false;

  /** A Bacs payment method and its mandate for the customer, as Stripe makes them from bank details. */
  makeMandate(customerId: string, account = { name: "Amina Mushi", sortCode: "108800", last4: "2345" }) {
    const methodId = `pm_test_${this.next++}`;
    this.paymentMethods.set(methodId, {
      id: methodId,
      object: "payment_method",
      type: "bacs_debit",
      customer: customerId,
      billing_details: { name: account.name, email: null },
      bacs_debit: { sort_code: account.sortCode, last4: account.last4, fingerprint: "fp" },
    });
    const mandateId = `mandate_test_${this.next++}`;
    this.mandates.set(mandateId, {
      id: mandateId,
      object: "mandate",
      status: "pending",
      type: "multi_use",
      payment_method: methodId,
      payment_method_details: {
        type: "bacs_debit",
        bacs_debit: { network_status: "pending", reference: `REF${this.next++}ABCDEFG`, url: "https://stripe.test/m" },
      },
    });
    return { methodId, mandateId };
  }

  /**
   * The donor confirms a Direct Debit subscription's first invoice with the Payment Element: a Bacs
   * payment method and mandate, and a payment `processing` (as Stripe's is for days) whose charge
   * names the mandate. Answers the mandate's id.
   */
  collectByBacs(invoiceId: string, account?: { name: string; sortCode: string; last4: string }) {
    const invoice = this.invoices.get(invoiceId)!;
    const subscriptionId = (invoice.parent as { subscription_details: { subscription: string } }).subscription_details
      .subscription;
    const subscription = this.subscriptions.get(subscriptionId)!;
    const { methodId, mandateId } = this.makeMandate(String(subscription.customer), account);
    const intentId = `pi_test_${this.next++}`;
    const chargeId = `ch_test_${this.next++}`;
    this.charges.set(chargeId, {
      id: chargeId,
      object: "charge",
      created: this.now(),
      amount: invoice.amount_due,
      currency: "gbp",
      payment_intent: intentId,
      status: "pending",
      payment_method: methodId,
      payment_method_details: {
        type: "bacs_debit",
        bacs_debit: { mandate: mandateId, sort_code: "108800", last4: "2345", fingerprint: "fp" },
      },
    });
    this.intents.set(intentId, {
      id: intentId,
      object: "payment_intent",
      amount: invoice.amount_due,
      currency: "gbp",
      status: "processing",
      client_secret: `${intentId}_secret_test`,
      latest_charge: chargeId,
      metadata: {},
    });
    invoice.payments = {
      object: "list",
      data: [
        {
          id: `inpay_${this.next++}`,
          object: "invoice_payment",
          payment: { type: "payment_intent", payment_intent: intentId },
        },
      ],
      has_more: false,
      url: "/v1/invoice_payments",
    };
    subscription.default_payment_method = methodId;
    return mandateId;
  }

  /** The bank's answer on a mandate: `active`, or `inactive` (refused, or cancelled at the bank). */
  setMandateStatus(mandateId: string, status: "active" | "inactive") {
    this.mandates.get(mandateId)!.status = status;
  }

  /** The donor finishes Checkout's setup page: its SetupIntent succeeds with a new Bacs mandate. */
  completeCheckoutSetup(sessionId: string, account?: { name: string; sortCode: string; last4: string }) {
    const session = this.sessions.get(sessionId)!;
    const { methodId, mandateId } = this.makeMandate(String(session.customer), account);
    Object.assign(this.setupIntents.get(String(session.setup_intent))!, {
      status: "succeeded",
      payment_method: methodId,
      mandate: mandateId,
      metadata: session.metadata,
    });
    return { methodId, mandateId };
  }

  /** A subscription's new invoice, open, made at `at` (its month is that moment's London month). */
  makeInvoice(subscriptionId: string, amount?: number, at: Date = this.clock?.now() ?? new Date()): string {
    const id = `in_test_${this.next++}`;
    const subscription = this.subscriptions.get(subscriptionId)!;
    const first = [...this.invoices.values()].find(
      (i) =>
        (i.parent as { subscription_details: { subscription: string } }).subscription_details.subscription ===
        subscriptionId,
    );
    this.invoices.set(id, {
      id,
      object: "invoice",
      status: "open",
      currency: "gbp",
      amount_due: amount ?? Number(first?.amount_due ?? 0),
      amount_paid: 0,
      created: Math.floor(at.getTime() / 1000),
      parent: {
        type: "subscription_details",
        subscription_details: { subscription: subscriptionId, metadata: subscription.metadata },
      },
      status_transitions: { paid_at: null },
      confirmation_secret: { client_secret: `pi_for_${id}_secret_test`, type: "payment_intent" },
      payments: { object: "list", data: [], has_more: false, url: `/v1/invoice_payments` },
    });
    subscription.latest_invoice = id;
    return id;
  }

  /** Stripe takes the invoice's payment: it is paid, and its subscription active. */
  payInvoice(invoiceId: string) {
    const invoice = this.invoices.get(invoiceId)!;
    invoice.status = "paid";
    invoice.amount_paid = invoice.amount_due;
    invoice.status_transitions = { paid_at: this.now() };
    const subscriptionId = (invoice.parent as { subscription_details: { subscription: string } }).subscription_details
      .subscription;
    this.subscriptions.get(subscriptionId)!.status = "active";
  }

  /** Sets a subscription's status as Stripe would after a failed payment (past_due) or a cancellation. */
  setSubscriptionStatus(subscriptionId: string, status: string) {
    this.subscriptions.get(subscriptionId)!.status = status;
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

  private heldInvoiceReads: Map<string, (() => void)[]> | undefined;

  /**
   * Makes every read of one invoice wait until it is released, one invoice at a time or all:
   * webhooks caught mid-flight. Releasing all ends the hold.
   */
  holdInvoiceReads() {
    const held = new Map<string, (() => void)[]>();
    this.heldInvoiceReads = held;
    const release = (invoiceId: string) => {
      for (const answer of held.get(invoiceId) ?? []) answer();
      held.delete(invoiceId);
    };
    return {
      release,
      releaseAll: () => {
        if (this.heldInvoiceReads === held) this.heldInvoiceReads = undefined;
        for (const invoiceId of [...held.keys()]) release(invoiceId);
      },
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

/** Stripe's event for an invoice (invoice.paid, invoice.payment_failed). */
export function invoiceEvent(eventId: string, type: string, invoiceId: string) {
  return { id: eventId, object: "event", type, data: { object: { id: invoiceId, object: "invoice" } } };
}

/** Stripe's event for a mandate (mandate.updated). */
export function mandateEvent(eventId: string, mandateId: string) {
  return {
    id: eventId,
    object: "event",
    type: "mandate.updated",
    data: { object: { id: mandateId, object: "mandate" } },
  };
}

/** Stripe's event for a subscription (customer.subscription.updated or .deleted). */
export function subscriptionEvent(eventId: string, type: string, subscriptionId: string) {
  return { id: eventId, object: "event", type, data: { object: { id: subscriptionId, object: "subscription" } } };
}
