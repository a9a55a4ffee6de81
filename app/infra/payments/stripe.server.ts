import Stripe from "stripe";
import { isPaymentCard, type PaymentCard } from "~/lib/payment-card";
import type {
  Mandate,
  NewPayment,
  NewSubscription,
  Payment,
  PaymentProvider,
  Subscription,
  SubscriptionChange,
  SubscriptionInvoice,
  WebhookEvent,
} from "./provider.server";
import { WebhookSignatureError } from "./provider.server";

export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Another address for Stripe's API (tests point it at a local stand-in). */
  apiUrl?: string;
  /**
   * The charity has its own Bacs notices approved and Stripe's turned off (STRIPE_BACS_OWN_NOTICES):
   * the site then sends the mandate's confirmation and advance notices itself (decision 092).
   */
  bacsOwnNotices?: boolean;
}

/** How long the account's Bacs capability is believed (and a failure to read it, a shorter time): a cache, timed by the monotonic clock. */
const capabilityLifeMs = { read: 10 * 60_000, failed: 60_000 } as const;

/** A Stripe mandate, read with its payment method expanded, as our code sees it. */
function toMandate(mandate: Stripe.Mandate): Mandate {
  const method = typeof mandate.payment_method === "string" ? undefined : mandate.payment_method;
  const status: Mandate["status"] =
    mandate.status === "active" ? "active" : mandate.status === "inactive" ? "inactive" : "pending";
  return {
    id: mandate.id,
    customerId: idOf(method?.customer) ?? "",
    reference: mandate.payment_method_details?.bacs_debit?.reference ?? "",
    status,
    accountName: method?.billing_details?.name ?? "",
    sortCode: method?.bacs_debit?.sort_code ?? "",
    last4: method?.bacs_debit?.last4 ?? "",
  };
}

function toPayment(intent: Stripe.PaymentIntent): Payment {
  return {
    id: intent.id,
    clientSecret: intent.client_secret ?? "",
    status: intent.status,
    amountPence: intent.amount,
    currency: intent.currency,
    metadata: { ...intent.metadata },
    card: cardOf(intent),
    succeededAt: succeededAtOf(intent),
  };
}

/**
 * When the money was taken: the latest charge's `created` (seconds), when the intent succeeded and
 * was read with its charge expanded. A charge is created when the card is confirmed, after any 3-D
 * Secure step, so this is the moment the buyer paid, however late we hear of it.
 */
function succeededAtOf(intent: Stripe.PaymentIntent): Date | null {
  const charge = intent.latest_charge;
  if (intent.status !== "succeeded" || !charge || typeof charge === "string") return null;
  return typeof charge.created === "number" ? new Date(charge.created * 1000) : null;
}

/** The card's brand and last four digits, from the intent's latest charge when it was read expanded. */
function cardOf(intent: Stripe.PaymentIntent): PaymentCard | null {
  const charge = intent.latest_charge;
  if (!charge || typeof charge === "string") return null;
  const card = charge.payment_method_details?.card;
  return isPaymentCard(card) ? { brand: card.brand, last4: card.last4 } : null;
}

/** The product every regular gift's price belongs to, made once in the charity's Stripe account. */
const monthlyGiftProduct = "kilele-monthly-gift";

const seconds = (moment: Date) => Math.floor(moment.getTime() / 1000);
const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? null);

function toSubscription(subscription: Stripe.Subscription): Subscription {
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? "",
    status: subscription.status,
    metadata: { ...subscription.metadata },
    amountPence: subscription.items?.data[0]?.price?.unit_amount ?? undefined,
    pausedUntil: subscription.pause_collection
      ? subscription.pause_collection.resumes_at
        ? new Date(subscription.pause_collection.resumes_at * 1000)
        : null
      : null,
  };
}

/** A regular gift's month as Stripe Billing keeps it: an invoice, read with its payments expanded. */
function toInvoice(invoice: Stripe.Invoice): SubscriptionInvoice {
  const payment = invoice.payments?.data[0]?.payment;
  return {
    id: invoice.id ?? "",
    subscriptionId: idOf(invoice.parent?.subscription_details?.subscription) ?? "",
    status: invoice.status ?? "draft",
    amountPence: invoice.status === "paid" ? invoice.amount_paid : invoice.amount_due,
    currency: invoice.currency,
    createdAt: new Date(invoice.created * 1000),
    paidAt: invoice.status_transitions.paid_at ? new Date(invoice.status_transitions.paid_at * 1000) : null,
    card: null,
    paymentId: idOf(payment?.payment_intent),
    clientSecret: invoice.confirmation_secret?.client_secret ?? null,
  };
}

/** Stripe's PaymentIntents, created and checked only on the server with the secret key. */
export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(api && {
      host: api.hostname,
      port: Number(api.port || (api.protocol === "https:" ? 443 : 80)),
      protocol: api.protocol.replace(":", "") as "http" | "https",
    }),
  });
  let product: Promise<string> | undefined;
  /** The regular gifts' product: read once per process, and made the first time there is none. */
  function giftProduct(): Promise<string> {
    product ??= stripe.products.retrieve(monthlyGiftProduct).then(
      (found) => found.id,
      async (error: unknown) => {
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError) || error.statusCode !== 404) throw error;
        const made = await stripe.products.create({ id: monthlyGiftProduct, name: "Monthly gift" });
        return made.id;
      },
    );
    product.catch(() => (product = undefined));
    return product;
  }
  let bacs: { offered: Promise<boolean>; until: number } | undefined;
  async function readMandate(id: string) {
    return toMandate(await stripe.mandates.retrieve(id, { expand: ["payment_method"] }));
  }
  return {
    name: "stripe",
    publishableKey: settings.publishableKey,
    bacsNoticesBySite: settings.bacsOwnNotices ?? false,
    async bacsOffered() {
      if (bacs && bacs.until > performance.now()) return bacs.offered;
      const offered = stripe.accounts.retrieveCurrent().then(
        (account) => account.capabilities?.bacs_debit_payments === "active",
        (error: unknown) => {
          // Card gifts still work; Direct Debit waits until Stripe can say.
          console.error("Reading the Stripe account's Bacs Direct Debit capability failed:", (error as Error).message);
          bacs = { offered: Promise.resolve(false), until: performance.now() + capabilityLifeMs.failed };
          return false;
        },
      );
      bacs = { offered, until: performance.now() + capabilityLifeMs.read };
      return offered;
    },
    retrieveMandate: readMandate,
    async subscriptionMandate(subscriptionId: string) {
      // The first invoice's payment carries the mandate it was collected from (its charge's details).
      const subscription = await stripe.subscriptions.retrieve(subscriptionId, { expand: ["latest_invoice.payments"] });
      const invoice = typeof subscription.latest_invoice === "string" ? undefined : subscription.latest_invoice;
      const intentId = idOf(invoice?.payments?.data[0]?.payment?.payment_intent);
      if (!intentId) return null;
      const intent = await stripe.paymentIntents.retrieve(intentId, { expand: ["latest_charge"] });
      const charge = typeof intent.latest_charge === "string" ? undefined : intent.latest_charge;
      const mandateId = charge?.payment_method_details?.bacs_debit?.mandate;
      return mandateId ? readMandate(mandateId) : null;
    },
    async startBankChange(subscriptionId: string, returnUrl: string) {
      // The Payment Element cannot set up Bacs without a payment: Stripe Checkout's setup mode can.
      const subscription = await stripe.subscriptions.retrieve(subscriptionId);
      const back = new URL(returnUrl);
      const success = new URL(back);
      success.searchParams.set("bank_session", "SESSION");
      const session = await stripe.checkout.sessions.create({
        mode: "setup",
        currency: "gbp",
        // This API version's name for Stripe's `payment_method_types[]=bacs_debit`: Bacs only.
        allowed_payment_method_types: ["bacs_debit"],
        customer: idOf(subscription.customer) ?? undefined,
        metadata: { subscription_id: subscriptionId },
        setup_intent_data: { metadata: { subscription_id: subscriptionId } },
        success_url: success.href.replace("SESSION", "{CHECKOUT_SESSION_ID}"),
        cancel_url: back.href,
      });
      if (!session.url) throw new Error(`Stripe gave Checkout Session ${session.id} no address.`);
      return { url: session.url };
    },
    async finishBankChange(subscriptionId: string, sessionId: string) {
      // Read from Stripe, never from the return address: saved only if Stripe says it is set up.
      const session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ["setup_intent"] });
      if (session.metadata?.subscription_id !== subscriptionId) {
        return { error: "Those bank details are not this gift's." };
      }
      const setup = typeof session.setup_intent === "string" ? undefined : session.setup_intent;
      const method = idOf(setup?.payment_method);
      const mandateId = idOf(setup?.mandate);
      if (setup?.status !== "succeeded" || !method || !mandateId) {
        return { error: "Your new bank details were not confirmed, so nothing has changed." };
      }
      await stripe.subscriptions.update(subscriptionId, { default_payment_method: method });
      return { mandate: await readMandate(mandateId) };
    },
    async createSubscription(input: NewSubscription) {
      const productId = await giftProduct();
      const customer = await stripe.customers.create(
        { name: input.name, email: input.email, metadata: input.metadata },
        { idempotencyKey: `${input.idempotencyKey}:customer` },
      );
      // The first month is an invoice item charged now; the monthly price starts on the donor's day
      // of next month, with nothing prorated between (decision 089).
      const subscription = await stripe.subscriptions.create(
        {
          customer: customer.id,
          description: input.description,
          metadata: input.metadata,
          items: [
            {
              price_data: {
                currency: "gbp",
                product: productId,
                unit_amount: input.amountPence,
                recurring: { interval: "month" },
              },
            },
          ],
          add_invoice_items: [{ price_data: { currency: "gbp", product: productId, unit_amount: input.amountPence } }],
          billing_cycle_anchor: seconds(input.secondPaymentAt),
          proration_behavior: "none",
          payment_behavior: "default_incomplete",
          payment_settings: {
            save_default_payment_method: "on_subscription",
            // A Direct Debit gift's invoices are collected by Bacs only (decision 092); a card gift's
            // by whatever the Payment Element offers, as before.
            ...(input.paymentMethod === "bacs_debit" && { payment_method_types: ["bacs_debit"] }),
          },
          expand: ["latest_invoice.confirmation_secret", "latest_invoice.payments"],
        },
        { idempotencyKey: input.idempotencyKey },
      );
      const invoice = subscription.latest_invoice;
      if (!invoice || typeof invoice === "string" || !invoice.confirmation_secret) {
        throw new Error(`Stripe gave subscription ${subscription.id} no first invoice to confirm.`);
      }
      return {
        subscription: toSubscription(subscription),
        firstInvoice: toInvoice(invoice),
        clientSecret: invoice.confirmation_secret.client_secret,
      };
    },
    async retrieveSubscription(id: string) {
      return toSubscription(await stripe.subscriptions.retrieve(id));
    },
    async retrieveInvoice(id: string) {
      return toInvoice(await stripe.invoices.retrieve(id, { expand: ["payments", "confirmation_secret"] }));
    },
    async listPaidInvoices(subscriptionId: string) {
      const invoices = await stripe.invoices
        .list({ subscription: subscriptionId, status: "paid", limit: 100, expand: ["data.payments"] })
        .autoPagingToArray({ limit: 10_000 });
      return invoices.map(toInvoice).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    },
    async cancelSubscription(id: string) {
      const subscription = await stripe.subscriptions.retrieve(id);
      if (subscription.status === "canceled" || subscription.status === "incomplete_expired") return;
      await stripe.subscriptions.cancel(id);
    },
    async changeSubscription(id: string, change: SubscriptionChange) {
      const params: Stripe.SubscriptionUpdateParams = { proration_behavior: "none" };
      if (change.amountPence !== undefined) {
        // The monthly price is the gift's own: its item gets a new one, taken from the next invoice.
        const subscription = await stripe.subscriptions.retrieve(id);
        const item = subscription.items.data[0];
        if (!item) throw new Error(`Stripe's subscription ${id} has no item to change.`);
        params.items = [
          {
            id: item.id,
            price_data: {
              currency: "gbp",
              product: await giftProduct(),
              unit_amount: change.amountPence,
              recurring: { interval: "month" },
            },
          },
        ];
      }
      // A new day: nothing is billed until the next payment, which anchors the months from then on.
      if (change.dayOfMonth !== undefined && change.nextPaymentAt) {
        params.trial_end = seconds(change.nextPaymentAt);
        params.metadata = { day_of_month: String(change.dayOfMonth) };
      }
      if (change.pause !== undefined) {
        params.pause_collection = change.pause ? { behavior: "void", resumes_at: seconds(change.pause.resumesAt) } : "";
      }
      await stripe.subscriptions.update(id, params);
    },
    async startCardChange(subscriptionId: string) {
      const subscription = await stripe.subscriptions.retrieve(subscriptionId);
      const setup = await stripe.setupIntents.create({
        customer: idOf(subscription.customer) ?? undefined,
        usage: "off_session",
        automatic_payment_methods: { enabled: true },
        metadata: { subscription_id: subscriptionId },
      });
      return { setupId: setup.id, clientSecret: setup.client_secret ?? "" };
    },
    async finishCardChange(subscriptionId: string, setupId: string) {
      // Read from Stripe, never from the return address: the card is saved only if Stripe says so.
      const setup = await stripe.setupIntents.retrieve(setupId, { expand: ["payment_method"] });
      if (setup.metadata?.subscription_id !== subscriptionId) return { error: "That card change is not this gift's." };
      if (setup.status !== "succeeded" || !setup.payment_method) {
        return { error: setup.last_setup_error?.message ?? "Your card was not confirmed, so nothing has changed." };
      }
      const method = setup.payment_method;
      await stripe.subscriptions.update(subscriptionId, { default_payment_method: idOf(method) ?? undefined });
      const card = typeof method === "string" ? undefined : method.card;
      return { card: isPaymentCard(card) ? { brand: card.brand, last4: card.last4 } : null };
    },
    async createPayment(input: NewPayment) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: input.amountPence,
          currency: "gbp",
          automatic_payment_methods: { enabled: true },
          description: input.description,
          metadata: input.metadata,
          ...(input.receiptEmail && { receipt_email: input.receiptEmail }),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return toPayment(intent);
    },
    async retrievePayment(id: string) {
      // The latest charge carries the card (brand, last four digits) the receipt names.
      return toPayment(await stripe.paymentIntents.retrieve(id, { expand: ["latest_charge"] }));
    },
    async cancelPayment(id: string) {
      try {
        await stripe.paymentIntents.cancel(id);
      } catch (error) {
        // Already paid, processing or cancelled: nothing to cancel.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      }
    },
    async refundPayment(id: string, idempotencyKey: string, amountPence?: number) {
      const refund = await stripe.refunds.create(
        { payment_intent: id, ...(amountPence !== undefined && { amount: amountPence }) },
        { idempotencyKey },
      );
      return { id: refund.id, amountPence: refund.amount };
    },
    async parseWebhook(rawBody: string, signature: string | null): Promise<WebhookEvent> {
      if (!signature) throw new WebhookSignatureError("No Stripe-Signature header.");
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, settings.webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError((error as Error).message);
      }
      const object = event.data.object as { object?: string; id?: string };
      return {
        id: event.id,
        type: event.type,
        paymentId: object.object === "payment_intent" ? object.id : undefined,
        invoiceId: object.object === "invoice" ? object.id : undefined,
        subscriptionId: object.object === "subscription" ? object.id : undefined,
        mandateId: object.object === "mandate" ? object.id : undefined,
      };
    },
  };
}
