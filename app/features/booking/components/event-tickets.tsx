import { Form, Link } from "react-router";
import { Field } from "~/components/ui/field";
import { Pagination } from "~/components/ui/pagination";
import { londonStamp } from "~/lib/london-time";
import type { Paged } from "~/lib/pagination";
import type { StaffTicket } from "../tickets.server";
import { onlyPlainTickets, ticketsInWords } from "~/lib/booking-items";
import { TableScroll } from "~/components/ui/table-scroll";

/** An event's tickets on its staff page: search, a page of 50 at a time, the CSV and the door list. */
export function EventTickets({
  eventId,
  tickets,
  search,
}: {
  eventId: string;
  tickets: Paged<StaffTicket>;
  search: string;
}) {
  const query = new URLSearchParams(search ? { q: search } : {});
  // An event sold at one price has nothing to say by type; one with types says them (decision 082).
  const typed = tickets.rows.some((ticket) => !onlyPlainTickets(ticket.types));
  return (
    <section className="section event-tickets" aria-labelledby="event-tickets-title">
      <h2 id="event-tickets-title">Tickets</h2>
      <p className="event-tickets-actions">
        <a href={`/admin/events/${eventId}/tickets.csv`} className="button button-secondary" download>
          Download CSV
        </a>
        <Link to={`/admin/events/${eventId}/door-list`} className="button button-secondary">
          Door list to print
        </Link>
      </p>
      <Form method="get" role="search" className="event-tickets-search" preventScrollReset>
        <Field
          id="ticket-search"
          label="Search"
          hint="A name, an e-mail address or a booking reference."
          control={(props) => (
            <div className="event-tickets-search-row">
              <input {...props} name="q" type="search" defaultValue={search} />
              <button type="submit" className="button">
                Search
              </button>
            </div>
          )}
        />
      </Form>
      {tickets.total === 0 ? (
        <p className="event-tickets-count" aria-live="polite">
          {search ? `No tickets match “${search}”.` : "No tickets are sold yet."}
        </p>
      ) : (
        <>
          <p className="event-tickets-count" aria-live="polite">
            {search ? `${tickets.total} matching “${search}”` : `${tickets.total} in all`}
          </p>
          <TableScroll label="Table of tickets">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Buyer</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Quantity</th>
                  {typed ? <th scope="col">Ticket types</th> : null}
                  <th scope="col">Booking reference</th>
                  <th scope="col">Date sold</th>
                  <th scope="col">Checked in</th>
                </tr>
              </thead>
              <tbody>
                {tickets.rows.map((ticket) => (
                  <tr key={ticket.bookingRef}>
                    <th scope="row">
                      {ticket.name}
                      {ticket.refunded ? <span className="badge">Refunded</span> : null}
                    </th>
                    <td data-label="E-mail">{ticket.email}</td>
                    <td data-label="Quantity">{ticket.quantity}</td>
                    {typed ? <td data-label="Ticket types">{ticketsInWords(ticket.types)}</td> : null}
                    <td data-label="Booking reference">
                      <Link to={`/admin/bookings/${ticket.bookingRef}`} className="booking-code">
                        {ticket.code}
                      </Link>
                      <br />
                      <small className="booking-ref">{ticket.bookingRef}</small>
                    </td>
                    <td data-label="Date sold">{londonStamp(ticket.dateSold)}</td>
                    <td data-label="Checked in">
                      {ticket.checkedIn} of {ticket.quantity}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pagination
            page={tickets.page}
            pages={tickets.pages}
            total={tickets.total}
            search={query}
            label="Pages of tickets"
          />
        </>
      )}
    </section>
  );
}
