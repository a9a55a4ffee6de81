import { redirect } from "react-router";

// The specification's /book-event carried the event in navigation state only; booking now has its
// own address per event (/book-event/:id). A bare /book-event goes to the events.
export function loader() {
  return redirect("/fundraising", 302);
}
