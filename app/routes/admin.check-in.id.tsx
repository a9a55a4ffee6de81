import type { Route } from "./+types/admin.check-in.id";
import { ErrorPage } from "~/components/layout/error-page";
import { DoorPage } from "~/features/door/components/door-page";
import { doorList } from "~/features/door/door.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";
import { londonWhen } from "~/lib/london-time";

// /admin/check-in/:id: the door for one event (features/door). `?ref=` is looked up at once: the
// receipt's QR code leads here through /admin/check-in/ticket/:bookingRef, and a name or code typed
// before the page's scripts ran arrives this way.
export const loader = pageWork("The door page", async ({ request, context, params }: Route.LoaderArgs) => {
  const staff = await requireStaffPage(context.services, request, "checkIn");
  const list = await doorList(context.services, params.id, context.services.clock.now());
  if (!list) throw new AppError("not-found", "There is no such event.");
  return { list, staffEmail: staff.email, lookUp: new URL(request.url).searchParams.get("ref") ?? undefined };
});

export const meta: Route.MetaFunction = ({ data }) =>
  adminMeta(data ? `Check-in: ${data.list.event.name}` : "Check-in");

// The page keeps its own list up to date; a revalidation would only replace it with an older one.
export const shouldRevalidate = () => false;

export default function DoorRoute({ loaderData: { list, staffEmail, lookUp } }: Route.ComponentProps) {
  return (
    <main id="main" className="page door-page">
      <Breadcrumbs here={list.event.name} />
      <h1>
        {list.event.name} <span className="door-when">{londonWhen(list.event.eventDate)}</span>
      </h1>
      <DoorPage initial={list} staffEmail={staffEmail} lookUp={lookUp} />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
