import { Link, useNavigate } from "react-router";
import { Field } from "~/components/ui/field";
import { formatPounds } from "~/lib/money";
import { applyPromo, promoMessages, type PromoTerms } from "../promo-pricing";

// The booking page's promo code (decision 084): `Promo code` and `Apply`, a form of its own that
// asks for the page again with `?code=`, so it works without JavaScript; the page's loader judges
// the code and the overview prices the tickets with it. The checkout judges it again when the
// buyer pays (POST /api/bookings `promoCode`).

/** A code the booking page applied (PagePromo, from promo-codes.server.ts). */
export interface AppliedPromo {
  code: string;
  words: string;
  terms: PromoTerms;
  oneTypeId: string | null;
}

/** The page's code as its loader judged it: applied, or why not. */
export interface PromoOnPage {
  code: string;
  applied: AppliedPromo | null;
  error: string | null;
}

/**
 * The overview's tickets with the code applied: `items` at the prices paid, `discount` the line the
 * overview shows (null without a code, or when it covers none of the tickets chosen) and the
 * message when it covers none. `lines` carry their type's id; a page of one type gives it as
 * `oneTypeId`.
 */
export function promoLines(
  promo: PromoOnPage | undefined,
  lines: { id?: string; pricePence: number; quantity: number }[],
) {
  const applied = promo?.applied;
  const priced = applyPromo(
    applied?.terms,
    lines.map((line) => ({ ...line, typeId: line.id ?? applied?.oneTypeId ?? "" })),
  );
  const chosen = lines.some((line) => line.quantity > 0);
  return {
    items: priced.items,
    discount: applied && priced.applies ? { label: `Promo code ${applied.code}`, pence: priced.discountPence } : null,
    notice: applied && chosen && !priced.applies ? promoMessages.noTickets : null,
    /** What POST /api/bookings is sent. */
    body: applied ? { promoCode: applied.code } : {},
  };
}

/** `Promo code` and `Apply`, with what the code does or why it cannot be used. */
export function PromoCodeField({
  eventId,
  promo,
  error,
  notice,
}: {
  eventId: string;
  promo: PromoOnPage | undefined;
  /** The checkout's answer about the code, when the buyer paid. */
  error?: string;
  notice: string | null;
}) {
  const applied = promo?.applied;
  const navigate = useNavigate();
  const page = `/book-event/${eventId}`;
  return (
    <form
      // Drawn afresh for each code the page applies, so the field shows it (and is empty once removed).
      key={promo?.code ?? ""}
      method="get"
      action={page}
      className="form promo-code"
      onSubmit={(submitted) => {
        // With JavaScript, the same address without reloading: what the buyer typed stays.
        submitted.preventDefault();
        const code = String(new FormData(submitted.currentTarget).get("code") ?? "").trim();
        void navigate(code ? `${page}?code=${encodeURIComponent(code)}` : page, { preventScrollReset: true });
      }}
    >
      <Field
        id="promo-code"
        label="Promo code"
        input={{ name: "code", autoComplete: "off", maxLength: 30, defaultValue: promo?.code ?? "" }}
        error={error ?? promo?.error ?? notice}
        announce
      />
      <button type="submit" className="button button-secondary">
        Apply
      </button>
      {applied ? (
        <p role="status" className="promo-applied">
          Code {applied.code} applied: {applied.words}.{" "}
          <Link to={`/book-event/${eventId}`} preventScrollReset>
            Remove the code
          </Link>
        </p>
      ) : null}
    </form>
  );
}

/** The overview's line for the discount: "Promo code SAVE20  -£5.00". */
export function DiscountRow({ discount }: { discount: { label: string; pence: number } | null | undefined }) {
  if (!discount) return null;
  return (
    <>
      <dt>{discount.label}</dt>
      <dd>{formatPounds(-discount.pence)}</dd>
    </>
  );
}
