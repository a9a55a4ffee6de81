CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"poster_image" text NOT NULL,
	"event_date" timestamp with time zone NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"ticket_cost_pence" integer,
	"total_available_tickets" integer NOT NULL,
	"ticket_sale_expiry" timestamp with time zone NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"link" text,
	"testimonial" jsonb,
	"gallery" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_ticket_cost_not_negative" CHECK ("events"."ticket_cost_pence" is null or "events"."ticket_cost_pence" >= 0),
	CONSTRAINT "events_total_tickets_not_negative" CHECK ("events"."total_available_tickets" >= 0)
);
--> statement-breakpoint
CREATE TABLE "staff_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_holder_name" text NOT NULL,
	"email" text NOT NULL,
	"event_id" uuid NOT NULL,
	"booking_ref" uuid NOT NULL,
	"is_valid" boolean DEFAULT true NOT NULL,
	"quantity" integer NOT NULL,
	"date_sold" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_in_at" timestamp with time zone,
	CONSTRAINT "tickets_booking_ref_unique" UNIQUE("booking_ref"),
	CONSTRAINT "tickets_quantity_positive" CHECK ("tickets"."quantity" >= 1)
);
--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD CONSTRAINT "staff_sessions_user_id_staff_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_event_date_idx" ON "events" USING btree ("event_date");--> statement-breakpoint
CREATE INDEX "staff_sessions_user_id_idx" ON "staff_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tickets_event_id_idx" ON "tickets" USING btree ("event_id");