// A card provider's reference (a payment's or a refund's), named for staff, who find it useful
// only when they talk to the provider: "Stripe refund re_…", "Test payment reference …".

export interface ProviderReference {
  label: string;
  id: string;
}

/** Names a payment provider's reference: Stripe's by its kind, the test provider's as such. */
export function providerReference(provider: string, id: string): ProviderReference {
  if (provider === "stripe") {
    const kind = id.startsWith("re_") ? "refund" : id.startsWith("pi_") ? "payment" : "reference";
    return { label: `Stripe ${kind}`, id };
  }
  return { label: id.startsWith("re_") ? "Test refund reference" : "Test payment reference", id };
}
