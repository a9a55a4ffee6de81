import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("about", "routes/about.tsx"),
  route("contact", "routes/contact.tsx"),
  route("volunteering", "routes/volunteering.tsx"),
  route("project", "routes/project.redirect.ts"),
  route("project/:slug", "routes/project.tsx"),
  route("fundraising", "routes/fundraising.tsx"),
  route("fundraising-event", "routes/fundraising-event.redirect.ts"),
  route("fundraising-event/:id", "routes/fundraising-event.tsx"),
  route("mock-event", "routes/mock-event.tsx"),
  route("book-event", "routes/book-event.redirect.ts"),
  route("book-event/:id", "routes/book-event.tsx"),
  route("confirmation", "routes/confirmation.tsx"),
  route("payment", "routes/payment.tsx"),
  // Specification calls 1 and 2 (docs/specification.md, section 7): page texts as JSON, by folder
  // name and by page key.
  route("content/:name/content.json", "routes/content-json.ts"),
  route("api/content/:pageKey", "routes/api.content.ts"),
  route("api/volunteers", "routes/api.volunteers.ts"),
  route("api/live/availability", "routes/api.live.availability.ts"),
  route("api/bookings", "routes/api.bookings.ts"),
  route("api/donations", "routes/api.donations.ts"),
  route("api/payments/offline/confirm", "routes/api.payments.offline.confirm.ts"),
  route("api/payments/webhook", "routes/api.payments.webhook.ts"),
  // Staff API (a signed-in staff session): docs/decisions/004-staff-accounts.md.
  route("api/admin/session", "routes/api.admin.session.ts"),
  route("api/admin/events", "routes/api.admin.events.ts"),
  route("api/admin/events/:id", "routes/api.admin.events.id.ts"),
  route("api/admin/events/:id/tickets", "routes/api.admin.events.id.tickets.ts"),
  route("api/admin/bookings/:bookingRef", "routes/api.admin.bookings.ref.ts"),
  route("api/admin/volunteers", "routes/api.admin.volunteers.ts"),
  route("api/admin/donations", "routes/api.admin.donations.ts"),
  route("api/admin/images", "routes/api.admin.images.ts"),
  // The staff area (docs/decisions/004-staff-accounts.md): every page but sign-in needs a session.
  route("admin/sign-in", "routes/admin.sign-in.tsx"),
  route("admin/sign-out", "routes/admin.sign-out.ts"),
  route("admin", "routes/admin.tsx", [
    index("routes/admin._index.tsx"),
    route("events", "routes/admin.events._index.tsx"),
    route("events/new", "routes/admin.events.new.tsx"),
    route("events/:id", "routes/admin.events.id.tsx"),
  ]),
  // Pictures staff upload, kept in the database (docs/decisions/012-uploaded-pictures.md).
  route("images/uploads/:file", "routes/images.uploads.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
