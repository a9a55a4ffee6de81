import { directDebitGuarantee, mandateWording } from "~/lib/bacs";

/** The mandate's wording and the Direct Debit Guarantee, as the Bacs scheme has them (decision 092). */
export function DirectDebitTerms({ charityName }: { charityName: string }) {
  return (
    <section className="direct-debit-terms" aria-labelledby="direct-debit-guarantee">
      <p>{mandateWording(charityName)}</p>
      <h3 id="direct-debit-guarantee">The Direct Debit Guarantee</h3>
      <ul>
        {directDebitGuarantee(charityName).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}
