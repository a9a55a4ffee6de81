import { Link } from "react-router";
import { londonWhen } from "~/lib/london-time";
import type { BookingMatch } from "../staff-bookings.server";
import { bookingStatusWords } from "./staff-booking";

/** The bookings a search found, each with its event, so staff can tell two of the same name apart. */
export function BookingMatches({
  typed,
  by,
  matches,
  more,
}: {
  typed: string;
  by: "code" | "person";
  matches: BookingMatch[];
  more: boolean;
}) {
  const count = matches.length === 1 ? "1 booking" : `${matches.length} bookings`;
  return (
    <section className="section" aria-labelledby="matches-title">
      <h2 id="matches-title">{by === "code" ? `Bookings with the code ${typed}` : `Bookings matching “${typed}”`}</h2>
      <p role="status">
        {more
          ? `The first ${count}, best matches first. Type more of the name or e-mail to narrow them down.`
          : `${count}, best matches first.`}
      </p>
      <ul className="search-results">
        {matches.map((match) => (
          <li key={match.bookingRef}>
            <Link to={`/admin/bookings/${match.bookingRef}`} className="search-result-title">
              {match.name}
            </Link>{" "}
            <span className="search-result-code">{match.code}</span>
            <span className="search-result-line">{match.email}</span>
            <span className="search-result-line">
              {match.eventName}, {londonWhen(match.eventDate)}
            </span>
            <span className="search-result-line">
              {match.quantity === 1 ? "1 ticket" : `${match.quantity} tickets`},{" "}
              {(bookingStatusWords[match.status] ?? match.status).toLowerCase()}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
