import { useState } from "react";
import { GiftAidFields, type GiftAidValues } from "~/components/payment/gift-aid-fields";
import { Field } from "~/components/ui/field";
import { parseDonationAmount } from "~/lib/donation-amount";
import { giftAidNamesFrom } from "~/lib/gift-aid-declaration";
import { giftLabels, validateGift, type GiftField } from "../gift";

// A gift at checkout on the booking page (decision 085): `Add a donation`, an amount in pounds,
// optional; when one is typed, the donation page's Gift Aid declaration for it. The checkout checks
// it again with the same rules (gift.ts).

type GiftErrors = Partial<Record<GiftField, string>>;

const noGiftAid: GiftAidValues = {
  giftAid: false,
  firstName: "",
  surname: "",
  houseNameOrNumber: "",
  postcode: "",
  scope: "this-donation",
};

/**
 * The gift's state for the booking form: `pence` for the overview and the payment (0 while none, or
 * while what is typed is not an amount), `check` before paying (the body's fields, or undefined
 * with the messages shown), `show` for the server's messages, and `element`, the fields.
 */
export function useBookingGift(charityName: string, buyerName: string) {
  const [amount, setAmount] = useState("");
  const [giftAid, setGiftAid] = useState<GiftAidValues>(noGiftAid);
  const [typedNames, setTypedNames] = useState({ firstName: false, surname: false });
  const [errors, setErrors] = useState<GiftErrors>({});
  const parsed = amount.trim() ? parseDonationAmount(amount) : undefined;
  const pence = parsed?.ok ? parsed.pence : 0;
  // Gift Aid's names follow the buyer's Name until typed in, as on the donation page.
  const names = giftAidNamesFrom(buyerName);
  const values: GiftAidValues = {
    ...giftAid,
    firstName: typedNames.firstName ? giftAid.firstName : names.firstName,
    surname: typedNames.surname ? giftAid.surname : names.surname,
  };
  const fields = { donationAmount: amount, ...values };

  function check(): Record<string, unknown> | undefined {
    const checked = validateGift(fields);
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return undefined;
    return checked.gift ? fields : {};
  }

  /** The server's messages for the gift's fields, if any; whether there were. */
  function show(found: Record<string, string> | undefined) {
    const mine = Object.fromEntries(Object.entries(found ?? {}).filter(([field]) => field in fields)) as GiftErrors;
    setErrors(mine);
    return Object.keys(mine).length > 0;
  }

  const element = (
    <div className="booking-gift">
      <Field
        id="donation-amount"
        label={giftLabels.donationAmount}
        hint="Optional, in pounds: a gift to the charity, apart from your tickets, paid with them."
        input={{ name: "donationAmount", inputMode: "decimal", value: amount, maxLength: 12, autoComplete: "off" }}
        error={errors.donationAmount}
        onValue={(value) => {
          setAmount(value);
          setErrors((current) => ({ ...current, donationAmount: undefined }));
        }}
      />
      {pence > 0 ? (
        <GiftAidFields
          values={values}
          errors={errors}
          amountPence={pence}
          charityName={charityName}
          onTick={(ticked) => setGiftAid((current) => ({ ...current, giftAid: ticked }))}
          onValue={(field, value) => {
            if (field === "firstName" || field === "surname") {
              setTypedNames((current) => ({ ...current, [field]: value.trim() !== "" }));
            }
            setGiftAid((current) => ({ ...current, [field]: value }));
            setErrors((current) => ({ ...current, [field]: undefined }));
          }}
          onScope={(scope) => setGiftAid((current) => ({ ...current, scope }))}
        />
      ) : null}
    </div>
  );
  return { pence, check, show, element };
}
