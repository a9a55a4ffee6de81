import { redirect } from "react-router";

// The specification's /fundraising-event carried the event in navigation state only; an event now
// has its own address (/fundraising-event/:id). A bare /fundraising-event goes to the list.
export function loader() {
  return redirect("/fundraising", 302);
}
