import { useRef } from "react";
import { Field } from "~/components/ui/field";
import { useEarlyChecked } from "~/components/ui/use-early-input";
import { giftAidPence } from "~/lib/donation-amount";
import {
  declarationWording,
  giftAidLimits,
  giftAidScopes,
  regularGiftScope,
  type GiftAidScope,
} from "~/lib/gift-aid-declaration";
import { formatPounds } from "~/lib/money";

/** The Gift Aid part of a form: the box, and when ticked the declaration's name, address and scope. */
export interface GiftAidValues {
  giftAid: boolean;
  firstName: string;
  surname: string;
  houseNameOrNumber: string;
  postcode: string;
  scope: GiftAidScope;
}
export type GiftAidTextField = "firstName" | "surname" | "houseNameOrNumber" | "postcode";

/**
 * The Gift Aid declaration, in HMRC's words for the amount given, as the donation page asks it and
 * the booking page asks it of a donation added to a booking (decision 085): the same fields, ids
 * and messages in both. `onName` is told of a first name or surname the donor typed themselves.
 */
export function GiftAidFields({
  values,
  errors,
  amountPence,
  charityName,
  onTick,
  onValue,
  onScope,
}: {
  values: GiftAidValues;
  errors: Partial<Record<GiftAidTextField, string | undefined>>;
  amountPence: number;
  charityName: string;
  onTick: (ticked: boolean) => void;
  onValue: (field: GiftAidTextField, value: string) => void;
  onScope: (scope: GiftAidScope) => void;
}) {
  const extraPence = giftAidPence(amountPence);
  const monthly = values.scope === regularGiftScope;
  const giftAidBox = useRef<HTMLInputElement>(null);
  useEarlyChecked(giftAidBox, values.giftAid, onTick);
  const text = (field: GiftAidTextField, label: string, autoComplete: string) => (
    <Field
      id={`gift-aid-${field}`}
      label={label}
      input={{
        name: field,
        autoComplete,
        value: values[field],
        maxLength: giftAidLimits[field],
        required: true,
      }}
      error={errors[field]}
      onValue={(v) => onValue(field, v)}
    />
  );
  return (
    <fieldset className="gift-aid">
      <legend>Gift Aid</legend>
      <p>
        If you are a UK taxpayer, Gift Aid lets {charityName} claim 25p from HMRC for every £1 you give, at no extra
        cost to you. It would add <strong>{formatPounds(extraPence)}</strong>, making your {formatPounds(amountPence)}{" "}
        worth <strong>{formatPounds(amountPence + extraPence)}</strong>.
      </p>
      <div className="checkbox-field">
        <input
          ref={giftAidBox}
          id="gift-aid"
          name="giftAid"
          type="checkbox"
          checked={values.giftAid}
          aria-describedby="gift-aid-declaration"
          onChange={(e) => onTick(e.target.checked)}
        />
        <label htmlFor="gift-aid">
          {monthly ? "Yes, I want to Gift Aid my monthly gift" : "Yes, I want to Gift Aid my donation"}
        </label>
      </div>
      <p id="gift-aid-declaration" className="declaration">
        {declarationWording(values.scope, amountPence, charityName)}
      </p>
      {values.giftAid ? (
        <div className="gift-aid-details">
          <p>
            HMRC needs your full name and home address for the claim. Your first name and surname are taken from your
            name above: correct them if they are not right.
          </p>
          <div className="field-pair">
            {text("firstName", "First name", "given-name")}
            {text("surname", "Surname", "family-name")}
          </div>
          <div className="field-pair">
            {text("houseNameOrNumber", "House name or number", "address-line1")}
            {text("postcode", "Postcode", "postal-code")}
          </div>
          {/* A monthly gift's declaration is HMRC's enduring one: there is no scope to choose (decision 089). */}
          {monthly ? null : (
            <fieldset className="radio-group">
              <legend>Which donations should Gift Aid cover?</legend>
              {(Object.entries(giftAidScopes) as [GiftAidScope, string][]).map(([key, label]) => (
                <div className="radio-field" key={key}>
                  <input
                    id={`gift-aid-scope-${key}`}
                    type="radio"
                    name="scope"
                    value={key}
                    checked={values.scope === key}
                    onChange={() => onScope(key)}
                  />
                  <label htmlFor={`gift-aid-scope-${key}`}>{label}</label>
                </div>
              ))}
            </fieldset>
          )}
        </div>
      ) : null}
    </fieldset>
  );
}
