import type { Route } from "./+types/api.live.availability";
import { availabilityStream } from "~/features/events/availability-stream.server";

// GET /api/live/availability: server-sent events with each event's {sold, remaining, soldOut}.
export const loader = ({ request, context }: Route.LoaderArgs) =>
  availabilityStream(context.services.availability, request, context.clientAddress);
