import type { Page } from "@playwright/test";

/**
 * A stand-in for Stripe.js, served at js.stripe.com's address (which this machine cannot reach):
 * just enough of `Stripe()`, `elements()` and the Payment Element for our card form to be driven
 * as Stripe's would be. Its "card" is one plain field; `confirmPayment` answers 4000 0000 0000 0002
 * with Stripe's card_error, and otherwise tells the test (which marks the intent succeeded at the
 * Stripe API stand-in) and goes to `return_url`, as Stripe does after a successful payment.
 */
const script = `(() => {
  function Stripe(publishableKey) {
    let field = null;
    const notify = (name, payload) => window.__stripeStandIn && window.__stripeStandIn(JSON.stringify({ name, publishableKey, ...payload }));
    const elements = {
      create(type) {
        const handlers = {};
        return {
          mount(node) {
            const label = document.createElement("label");
            label.textContent = "Stripe test card number";
            field = document.createElement("input");
            field.id = "stripe-standin-card";
            label.htmlFor = field.id;
            node.append(label, field);
            setTimeout(() => (handlers.ready || []).forEach((handler) => handler({ elementType: type })), 50);
          },
          on(event, handler) { (handlers[event] = handlers[event] || []).push(handler); },
          off(event, handler) { handlers[event] = (handlers[event] || []).filter((h) => h !== handler); },
          update() {},
          destroy() {},
        };
      },
      update(options) { notify("elements.update", { options }); },
      async submit() {
        return field && field.value.trim() ? {} : { error: { type: "validation_error", message: "Your card number is incomplete." } };
      },
      getElement() { return null; },
    };
    return {
      elements(options) { notify("elements", { options }); return elements; },
      createToken() {}, createPaymentMethod() {}, confirmCardPayment() {},
      _registerWrapper() {}, registerAppInfo() {},
      async confirmPayment({ clientSecret, confirmParams }) {
        if (field.value.replace(/\\s/g, "") === "4000000000000002") {
          return { error: { type: "card_error", code: "card_declined", message: "Your card was declined." } };
        }
        await notify("confirmPayment", { clientSecret, confirmParams });
        window.location.assign(confirmParams.return_url);
        return new Promise(() => {});
      },
    };
  }
  Stripe.version = "endive";
  window.Stripe = Stripe;
})();`;

export interface StripeJsCall {
  name: string;
  publishableKey: string;
  clientSecret?: string;
  confirmParams?: { return_url: string; receipt_email?: string };
  options?: Record<string, unknown>;
}

/** Serves the stand-in for this page; `onConfirm` runs when a payment is confirmed, before the redirect. */
export async function serveStripeJs(page: Page, onConfirm: (call: StripeJsCall) => void | Promise<void>) {
  const calls: StripeJsCall[] = [];
  await page.exposeFunction("__stripeStandIn", async (json: string) => {
    const call = JSON.parse(json) as StripeJsCall;
    calls.push(call);
    if (call.name === "confirmPayment") await onConfirm(call);
  });
  await page.route("https://js.stripe.com/**", (route) =>
    route.fulfill({ body: script, contentType: "application/javascript" }),
  );
  return calls;
}
