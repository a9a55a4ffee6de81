import { useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { BusyButton } from "~/components/ui/spinner";
import { formatPounds } from "~/lib/money";
import { useHydrated } from "~/components/ui/use-hydrated";

/** Refund donation: a required reason, asked about first, sent once with the page's one-time key. */
export function RefundDonationForm({
  refundKey,
  amountPence,
  claimed,
  error,
  reason = "",
}: {
  refundKey: string;
  amountPence: number;
  /** Already in a Gift Aid claim: the question says HMRC must then be told. */
  claimed: boolean;
  error: string | undefined;
  /** The reason typed, when the refund was refused. */
  reason?: string;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const confirmed = useRef(false);
  const [asking, setAsking] = useState(false);
  const [missing, setMissing] = useState(false);
  // Sent before the scripts ran, the form would refund without its question: the button waits for them.
  const ready = useHydrated();
  const navigation = useNavigation();
  const refunding = navigation.state !== "idle" && navigation.formData?.get("intent") === "refund";
  const message = missing ? "Please say why the donation is refunded (at most 500 characters)." : error;
  return (
    <>
      <Form
        ref={formRef}
        method="post"
        className="form"
        noValidate
        onSubmit={(event) => {
          if (refunding) {
            event.preventDefault();
            return;
          }
          if (confirmed.current) {
            confirmed.current = false;
            return;
          }
          event.preventDefault();
          const reason = String(new FormData(event.currentTarget).get("reason") ?? "").trim();
          setMissing(reason === "");
          if (reason !== "") setAsking(true);
          else document.getElementById("refund-reason")?.focus();
        }}
      >
        <input type="hidden" name="intent" value="refund" />
        <input type="hidden" name="key" value={refundKey} />
        <Field
          id="refund-reason"
          label="Reason"
          textarea={{ name: "reason", rows: 3, maxLength: 500, required: true, defaultValue: reason }}
          error={message}
        />
        <div className="form-actions">
          <BusyButton
            busy={refunding}
            busyLabel="Refunding…"
            className="button button-danger"
            aria-disabled={refunding}
            disabled={!ready}
          >
            Refund donation
          </BusyButton>
          <p className="form-progress" role="status">
            {refunding ? "Refunding…" : ""}
          </p>
        </div>
      </Form>
      <ConfirmDialog
        open={asking}
        title="Refund this donation?"
        message={`${formatPounds(amountPence)} will be given back to the donor's card and they will be told by e-mail. No Gift Aid can then be claimed on it.${claimed ? " It is already in a Gift Aid claim: HMRC must be told, so the claim is adjusted." : ""} This cannot be undone.`}
        confirmLabel="Refund the donation"
        cancelLabel="Keep it"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          confirmed.current = true;
          formRef.current?.requestSubmit();
        }}
      />
    </>
  );
}

/** Cancel declaration: the donor asked; staff record it, asked about first. */
export function CancelDeclarationForm() {
  const formRef = useRef<HTMLFormElement>(null);
  const [asking, setAsking] = useState(false);
  const navigation = useNavigation();
  const cancelling = navigation.state !== "idle" && navigation.formData?.get("intent") === "cancel-declaration";
  return (
    <>
      <Form ref={formRef} method="post">
        <input type="hidden" name="intent" value="cancel-declaration" />
        <BusyButton
          busy={cancelling}
          busyLabel="Saving…"
          type="button"
          className="button button-secondary"
          aria-disabled={cancelling}
          onClick={() => {
            if (!cancelling) setAsking(true);
          }}
        >
          Cancel declaration
        </BusyButton>
      </Form>
      <ConfirmDialog
        open={asking}
        title="Cancel this Gift Aid declaration?"
        message="Record that the donor cancelled this declaration. Donations they make from now on are not claimed under it; donations already made stay covered. This cannot be undone."
        confirmLabel="Cancel the declaration"
        cancelLabel="Keep it"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          formRef.current?.requestSubmit();
        }}
      />
    </>
  );
}
