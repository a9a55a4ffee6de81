CREATE TABLE "waiting_list_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"ticket_type_id" uuid,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"tickets" integer NOT NULL,
	"joined_at" timestamp with time zone NOT NULL,
	"state" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "waiting_list_entries_tickets_range" CHECK ("waiting_list_entries"."tickets" between 1 and 29),
	CONSTRAINT "waiting_list_entries_state_known" CHECK ("waiting_list_entries"."state" in ('waiting', 'offered', 'booked', 'passed', 'removed'))
);
--> statement-breakpoint
CREATE TABLE "waiting_list_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"ticket_type_id" uuid NOT NULL,
	"tickets" integer NOT NULL,
	"seats" integer NOT NULL,
	"token_hash" text NOT NULL,
	"booking_ref" uuid NOT NULL,
	"state" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "waiting_list_offers_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "waiting_list_offers_state_known" CHECK ("waiting_list_offers"."state" in ('open', 'accepted', 'declined', 'expired', 'withdrawn'))
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "waiting_list_offer_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_offers" ADD CONSTRAINT "waiting_list_offers_entry_id_waiting_list_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."waiting_list_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_offers" ADD CONSTRAINT "waiting_list_offers_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_offers" ADD CONSTRAINT "waiting_list_offers_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_offers" ADD CONSTRAINT "waiting_list_offers_booking_ref_bookings_booking_ref_fk" FOREIGN KEY ("booking_ref") REFERENCES "public"."bookings"("booking_ref") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waiting_list_entries_event_email_idx" ON "waiting_list_entries" USING btree ("event_id","email");--> statement-breakpoint
CREATE INDEX "waiting_list_entries_order_idx" ON "waiting_list_entries" USING btree ("event_id","state","joined_at");--> statement-breakpoint
CREATE INDEX "waiting_list_offers_event_state_idx" ON "waiting_list_offers" USING btree ("event_id","state");--> statement-breakpoint
CREATE INDEX "waiting_list_offers_entry_idx" ON "waiting_list_offers" USING btree ("entry_id");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_waiting_list_offer_hours_range" CHECK ("events"."waiting_list_offer_hours" between 1 and 336);