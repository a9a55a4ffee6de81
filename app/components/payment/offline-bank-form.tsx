import { useEffect, useImperativeHandle, useState, type Ref } from "react";
import { Field } from "~/components/ui/field";
import {
  accountHolderConfirmation,
  bankDetailsProblems,
  bankLimits,
  type BankDetails,
  type BankField,
} from "~/lib/bacs";
import { unexpectedError, type CardFormHandle } from "./card-form";
import { DirectDebitTerms } from "./direct-debit-terms";

/**
 * The offline test provider's bank form for a Direct Debit (decision 092): the account holder's
 * name, sort code and account number, the holder's confirmation, the mandate's wording and the
 * Direct Debit Guarantee. Stripe's test details only; no money moves. Each refusal is written
 * beside its field.
 */
export function OfflineBankForm({
  ref,
  onReady,
  charityName,
}: {
  ref: Ref<CardFormHandle>;
  onReady(): void;
  charityName: string;
}) {
  const [bank, setBank] = useState<BankDetails>({ accountName: "", sortCode: "", accountNumber: "", confirmed: "" });
  const [errors, setErrors] = useState<Partial<Record<BankField, string>>>({});
  useEffect(() => onReady(), [onReady]);
  useImperativeHandle(ref, () => ({
    async check() {
      const problems = bankDetailsProblems(bank);
      setErrors(problems);
      return Object.values(problems)[0];
    },
    async pay(clientSecret, returnUrl) {
      const response = await fetch("/api/payments/offline/confirm", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ clientSecret, bank }),
      });
      const outcome = (await response.json().catch(() => ({}))) as {
        status?: string;
        error?: string;
        fields?: Partial<Record<BankField, string>>;
      };
      if (outcome.fields) setErrors(outcome.fields);
      if (outcome.error) return outcome.error;
      if (!response.ok) return unexpectedError(`the Direct Debit could not be set up (${response.status})`);
      window.location.assign(returnUrl);
      return new Promise<never>(() => {});
    },
  }));
  const set = (field: BankField) => (value: string) => {
    setBank((b) => ({ ...b, [field]: value }));
    // A field put right loses its message; the others keep theirs until the next try.
    setErrors((found) => (found[field] ? { ...found, [field]: undefined } : found));
  };
  return (
    <>
      <p className="test-banner">
        Test payments: no real money is collected. Use sort code <code>10-88-00</code> with account number{" "}
        <code>00012345</code> (payments succeed), <code>33333335</code> (payments fail) or <code>00033333</code> (the
        bank refuses the Direct Debit).
      </p>
      <BankFields values={bank} errors={errors} onValue={(field, value) => set(field)(value)} />
      <DirectDebitTerms charityName={charityName} />
    </>
  );
}

/**
 * The bank details' fields, for the donation form (held by the page) and for the gift's page
 * (a plain form posted without JavaScript: `values` are then its defaults).
 */
export function BankFields({
  values,
  errors,
  onValue,
}: {
  values: BankDetails;
  errors: Partial<Record<BankField, string | undefined>>;
  /** The page holds the values; without it they are the form's defaults. */
  onValue?: (field: BankField, value: string) => void;
}) {
  const held = (field: Exclude<BankField, "confirmed">) =>
    onValue ? { value: values[field] } : { defaultValue: values[field] };
  return (
    <div className="bank-fields">
      <Field
        id="bank-account-name"
        label="Account holder's name"
        input={{
          name: "accountName",
          autoComplete: "name",
          maxLength: bankLimits.accountName,
          required: true,
          ...held("accountName"),
        }}
        error={errors.accountName}
        {...(onValue && { onValue: (value: string) => onValue("accountName", value) })}
      />
      <div className="field-pair">
        <Field
          id="bank-sort-code"
          label="Sort code"
          hint="Six digits, such as 10-88-00."
          input={{
            name: "sortCode",
            inputMode: "numeric",
            autoComplete: "off",
            maxLength: 8,
            required: true,
            ...held("sortCode"),
          }}
          error={errors.sortCode}
          {...(onValue && { onValue: (value: string) => onValue("sortCode", value) })}
        />
        <Field
          id="bank-account-number"
          label="Account number"
          hint="Eight digits."
          input={{
            name: "accountNumber",
            inputMode: "numeric",
            autoComplete: "off",
            maxLength: 10,
            required: true,
            ...held("accountNumber"),
          }}
          error={errors.accountNumber}
          {...(onValue && { onValue: (value: string) => onValue("accountNumber", value) })}
        />
      </div>
      <Field
        id="bank-confirmed"
        label={accountHolderConfirmation}
        input={{
          type: "checkbox",
          name: "confirmed",
          value: "yes",
          required: true,
          ...(onValue
            ? {
                checked: values.confirmed === "yes",
                onChange: (event) => onValue("confirmed", event.target.checked ? "yes" : ""),
              }
            : { defaultChecked: values.confirmed === "yes" }),
        }}
        error={errors.confirmed}
      />
    </div>
  );
}
