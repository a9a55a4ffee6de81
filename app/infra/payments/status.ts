/**
 * Payment status on return (docs/specification.md, section 4): what each payment status says to
 * the visitor when the provider sends them back (bookings and donations alike); nothing for one
 * still awaiting a card.
 */
export function paymentStatusText(status: string): string | null {
  if (status === "succeeded") return "Payment succeeded!";
  if (status === "processing") return "Your payment is processing.";
  if (status === "requires_payment_method") return null;
  return `Something went wrong: ${status}`;
}
