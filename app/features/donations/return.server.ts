import type { OutboxWorker } from "~/infra/email/outbox.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { paymentStatusText } from "~/infra/payments/status";
import { giftAidPence } from "./amount";
import { settleDonation } from "./donations.server";

export type DonationReturn =
  | { kind: "unknown" }
  | { kind: "status"; status: string | null; retry: boolean; amountPence: number }
  | { kind: "thanks"; amountPence: number; giftAidPence: number | null };

/**
 * The donor is back from the payment provider at /payment?…&donation=<id>: settle the donation
 * from what the provider says (never from the URL), and make the thank-you e-mail's first attempt
 * at once; the outbox keeps retrying it if the mail server is down.
 */
export async function donationReturn(
  deps: PaymentDeps & { outbox: Pick<OutboxWorker, "deliver"> },
  donationId: string,
): Promise<DonationReturn> {
  const settlement = await settleDonation(deps, donationId);
  if (settlement.outcome === "unknown") return { kind: "unknown" };
  const { donation, declaration } = settlement;
  if (settlement.outcome === "pending") {
    return {
      kind: "status",
      status: paymentStatusText(settlement.status),
      retry: settlement.status === "requires_payment_method",
      amountPence: donation.amountPence,
    };
  }
  if (settlement.firstTime) await deps.outbox.deliver("donation-receipt", donationId);
  return {
    kind: "thanks",
    amountPence: donation.amountPence,
    giftAidPence: declaration ? giftAidPence(donation.amountPence) : null,
  };
}
