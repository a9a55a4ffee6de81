import { useState, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { Pagination } from "~/components/ui/pagination";
import { BusyButton } from "~/components/ui/spinner";
import { TableScroll } from "~/components/ui/table-scroll";
import { answerLine } from "~/lib/questions";
import { onlyPlainTickets, plainTypeName } from "~/lib/booking-items";
import { londonStamp } from "~/lib/london-time";
import type { Paged } from "~/lib/pagination";
import type {
  HeldBooking,
  HeldDeclaration,
  HeldDonation,
  HeldRegularGift,
  HeldEmail,
  HeldRefund,
  HeldTicket,
  HeldVolunteerSignUp,
} from "../schema";

/** Each list on the page, one page of 50 at a time, under its own query parameter. */
export interface PersonDataPages {
  emailAddress: string;
  bookings: Paged<HeldBooking>;
  tickets: Paged<HeldTicket>;
  donations: Paged<HeldDonation>;
  regularGifts: Paged<HeldRegularGift>;
  giftAidDeclarations: Paged<HeldDeclaration>;
  volunteerSignUps: Paged<HeldVolunteerSignUp>;
  emailsSent: Paged<HeldEmail>;
  refunds: Paged<HeldRefund>;
}

const when = (value: string | null) => (value ? londonStamp(value) : "—");

/** A stored status as staff read it: "refund_pending" as "Refund pending". */
const statusText = (status: string) => status.charAt(0).toUpperCase() + status.slice(1).replace(/_/g, " ");

const scopes: Record<string, string> = {
  "this-donation": "This donation",
  "this-and-past-four-years": "This donation and the past four years",
  "past-four-years-and-future": "The past four years and all future donations",
  "this-and-future": "This monthly gift and all future donations",
};

/** The look-up form: a GET, so the address is in the URL and the page works before scripts load. */
export function PersonSearch({ email, error }: { email: string; error?: string }) {
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/admin/people";
  return (
    <Form method="get" role="search" className="person-search" noValidate>
      <Field
        id="person-email"
        label="Email address"
        hint="The address they gave when they booked, donated or signed up. Capitals do not matter."
        error={error}
        control={(props) => (
          <div className="person-search-row">
            <input
              {...props}
              name="email"
              type="email"
              autoComplete="off"
              defaultValue={email}
              maxLength={254}
              required
            />
            <BusyButton busy={searching} busyLabel="Searching…">
              Find their data
            </BusyButton>
          </div>
        )}
      />
    </Form>
  );
}

function HeldSection<T>({
  id,
  title,
  rows,
  search,
  children,
}: {
  id: string;
  title: string;
  rows: Paged<T>;
  search: URLSearchParams;
  children: (rows: T[]) => ReactNode;
}) {
  if (rows.total === 0) return null;
  return (
    <section className="section person-section" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>
        {title} ({rows.total})
      </h3>
      <TableScroll label={`Table of ${title.toLowerCase()}`}>{children(rows.rows)}</TableScroll>
      <Pagination
        page={rows.page}
        pages={rows.pages}
        total={rows.total}
        search={search}
        label={`Pages of ${title.toLowerCase()}`}
        param={id}
      />
    </section>
  );
}

/** Everything held about one address, section by section (a section with nothing is left out). */
export function PersonRecords({ data, search }: { data: PersonDataPages; search: URLSearchParams }) {
  return (
    <>
      <HeldSection id="bookings" title="Bookings" rows={data.bookings} search={search}>
        {(rows) => (
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Reference</th>
                <th scope="col">Name</th>
                <th scope="col">Tickets</th>
                <th scope="col">Amount</th>
                <th scope="col">Refunded</th>
                <th scope="col">Status</th>
                <th scope="col">Booked</th>
                <th scope="col">Paid</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((b) => (
                <tr key={b.bookingReference}>
                  <th scope="row">{b.event}</th>
                  <td data-label="Reference" className="booking-ref">
                    {b.bookingReference}
                  </td>
                  <td data-label="Name">{b.name}</td>
                  <td data-label="Tickets">
                    {onlyPlainTickets(b.ticketTypes.map((t) => ({ name: t.type, seatsPerTicket: t.placesEach })))
                      ? b.quantity
                      : `${b.quantity}: ${b.tickets}`}
                    {b.answers.length > 0 ? (
                      <ul className="answer-list">
                        {b.answers.map((answer) => (
                          <li key={`${answer.question}-${answer.attendee}`}>{answerLine(answer)}</li>
                        ))}
                      </ul>
                    ) : null}
                  </td>
                  <td data-label="Amount">{b.amount}</td>
                  <td data-label="Refunded">{b.refunded}</td>
                  <td data-label="Status">{statusText(b.status)}</td>
                  <td data-label="Booked">{when(b.booked)}</td>
                  <td data-label="Paid">{when(b.paid)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </HeldSection>
      <HeldSection id="tickets" title="Tickets" rows={data.tickets} search={search}>
        {(rows) => (
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Reference</th>
                <th scope="col">Name</th>
                <th scope="col">Places</th>
                <th scope="col">Sold</th>
                <th scope="col">Checked in</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <tr key={t.bookingReference}>
                  <th scope="row">
                    {t.event}
                    {t.valid ? null : <span className="badge">Not valid</span>}
                  </th>
                  <td data-label="Reference" className="booking-ref">
                    {t.bookingReference}
                  </td>
                  <td data-label="Name">{t.name}</td>
                  <td data-label="Places">{t.places}</td>
                  <td data-label="Sold">{when(t.sold)}</td>
                  <td data-label="Checked in">
                    {t.checkIns.length === 0 ? (
                      "Not yet"
                    ) : (
                      <ul className="person-check-ins">
                        {t.checkIns.map((c) => (
                          <li key={`${c.at}-${c.places}-${c.outcome}`}>
                            {when(c.at)}: {c.places} {c.places === 1 ? "place" : "places"}
                            {c.outcome === "checked-in" ? "" : ` (${c.outcome})`}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </HeldSection>
      <HeldSection id="donations" title="Donations" rows={data.donations} search={search}>
        {(rows) => (
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Amount</th>
                <th scope="col">Reference</th>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Made</th>
                <th scope="col">Paid</th>
                <th scope="col">Refunded</th>
                <th scope="col">Gift Aid claimed</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.donationReference}>
                  <th scope="row">{d.amount}</th>
                  <td data-label="Reference" className="booking-ref">
                    {d.donationReference}
                  </td>
                  <td data-label="Name">{d.name}</td>
                  <td data-label="Status">{statusText(d.status)}</td>
                  <td data-label="Made">{when(d.made)}</td>
                  <td data-label="Paid">{when(d.paid)}</td>
                  <td data-label="Refunded">{when(d.refunded)}</td>
                  <td data-label="Gift Aid claimed">{d.giftAidClaimed ? "Yes" : "No"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </HeldSection>
      <HeldSection id="regularGifts" title="Monthly gifts" rows={data.regularGifts} search={search}>
        {(rows) => (
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Amount</th>
                <th scope="col">Reference</th>
                <th scope="col">Name</th>
                <th scope="col">Day of the month</th>
                <th scope="col">Status</th>
                <th scope="col">Started</th>
                <th scope="col">Cancelled</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((g) => (
                <tr key={g.giftReference}>
                  <th scope="row">{g.amount} a month</th>
                  <td data-label="Reference" className="booking-ref">
                    {g.giftReference}
                  </td>
                  <td data-label="Name">{g.name}</td>
                  <td data-label="Day of the month">{g.dayOfMonth}</td>
                  <td data-label="Status">{statusText(g.status)}</td>
                  <td data-label="Started">{when(g.started)}</td>
                  <td data-label="Cancelled">{when(g.cancelled)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </HeldSection>
      <HeldSection
        id="giftAidDeclarations"
        title="Gift Aid declarations"
        rows={data.giftAidDeclarations}
        search={search}
      >
        {(rows) => (
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">House</th>
                <th scope="col">Postcode</th>
                <th scope="col">Covers</th>
                <th scope="col">Declared</th>
                <th scope="col">Cancelled</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((g) => (
                <tr key={g.donationReference}>
                  <th scope="row">
                    {g.firstName} {g.surname}
                  </th>
                  <td data-label="House">{g.houseNameOrNumber}</td>
                  <td data-label="Postcode">{g.postcode}</td>
                  <td data-label="Covers">{scopes[g.scope] ?? g.scope}</td>
                  <td data-label="Declared">{when(g.declared)}</td>
                  <td data-label="Cancelled">{when(g.cancelled)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </HeldSection>
      <HeldSection id="volunteerSignUps" title="Volunteer sign-ups" rows={data.volunteerSignUps} search={search}>
        {(rows) => (
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">What they wrote</th>
                <th scope="col">Signed up</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((v) => (
                <tr key={v.signedUp + v.whyTheyWantToHelp}>
                  <th scope="row">{v.name}</th>
                  <td data-label="What they wrote">{v.whyTheyWantToHelp}</td>
                  <td data-label="Signed up">{when(v.signedUp)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </HeldSection>
      <HeldSection id="emailsSent" title="E-mails sent" rows={data.emailsSent} search={search}>
        {(rows) => (
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">Subject</th>
                <th scope="col">Written</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((m) => (
                <tr key={m.queued + m.kind + m.subject}>
                  <th scope="row">{m.kind}</th>
                  <td data-label="Subject">{m.subject}</td>
                  <td data-label="Written">{when(m.queued)}</td>
                  <td data-label="Status">
                    {m.status === "sent"
                      ? `Sent ${when(m.sent)}`
                      : m.status === "retrying"
                        ? "Not sent yet, retrying"
                        : "Waiting to be sent"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </HeldSection>
      <HeldSection id="refunds" title="Refunds" rows={data.refunds} search={search}>
        {(rows) => (
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Amount</th>
                <th scope="col">Of</th>
                <th scope="col">Tickets</th>
                <th scope="col">Reason</th>
                <th scope="col">Status</th>
                <th scope="col">Asked</th>
                <th scope="col">Completed</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.asked + r.of + r.amountPence}>
                  <th scope="row">{r.amount}</th>
                  <td data-label="Of" className="booking-ref">
                    {r.of}
                  </td>
                  <td data-label="Tickets">
                    {r.places === null
                      ? "—"
                      : r.ticketType && r.ticketType !== plainTypeName
                        ? `${r.places} × ${r.ticketType}`
                        : r.places}
                  </td>
                  <td data-label="Reason">{r.reason}</td>
                  <td data-label="Status">{statusText(r.status)}</td>
                  <td data-label="Asked">{when(r.asked)}</td>
                  <td data-label="Completed">{when(r.completed)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </HeldSection>
    </>
  );
}

/** What erasing keeps and deletes, said before staff confirm. */
export const erasureQuestion =
  "Their volunteer sign-ups and unsent e-mails will be deleted. Bookings, tickets and donations are kept for the charity's accounts (6 years) with the name replaced by “Erased” and the e-mail address removed; check-ins, amounts and dates stay. A Gift Aid declaration HMRC may still ask for keeps the name and home address; any other is anonymised. Sent e-mails keep only that they were sent. This cannot be undone.";

/** Erase their data, asked about first, with a pending state while the server works. */
export function EraseButton({ email }: { email: string }) {
  const [asking, setAsking] = useState(false);
  const navigation = useNavigation();
  const erasing = navigation.state === "submitting" && navigation.formData?.get("intent") === "erase";
  return (
    <>
      <Form method="post" id="erase-person" className="person-erase">
        <input type="hidden" name="intent" value="erase" />
        <input type="hidden" name="email" value={email} />
        <BusyButton
          busy={erasing}
          busyLabel="Erasing…"
          type="button"
          className="button button-danger"
          aria-disabled={erasing}
          onClick={() => {
            if (!erasing) setAsking(true);
          }}
        >
          Erase their data
        </BusyButton>
        <p className="form-progress" role="status">
          {erasing ? "Erasing their data…" : ""}
        </p>
      </Form>
      <ConfirmDialog
        open={asking}
        title="Erase this person's data?"
        message={erasureQuestion}
        confirmLabel="Erase their data"
        cancelLabel="Keep it"
        onConfirm={() => {
          (document.getElementById("erase-person") as HTMLFormElement | null)?.requestSubmit();
          setAsking(false);
        }}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}
