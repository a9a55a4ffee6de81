CREATE TABLE "event_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"audience" text NOT NULL,
	"ticket_type_id" uuid,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"staff_user_id" uuid,
	"staff_email" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"addressed" integer NOT NULL,
	CONSTRAINT "event_messages_audience_known" CHECK ("event_messages"."audience" in ('all', 'type', 'checked-in', 'not-checked-in', 'waiting-list')),
	CONSTRAINT "event_messages_type_with_audience" CHECK (("event_messages"."audience" = 'type') = ("event_messages"."ticket_type_id" is not null)),
	CONSTRAINT "event_messages_kind_known" CHECK ("event_messages"."kind" in ('message', 'thank-you')),
	CONSTRAINT "event_messages_subject_length" CHECK (char_length("event_messages"."subject") between 1 and 150),
	CONSTRAINT "event_messages_body_length" CHECK (char_length("event_messages"."body") between 1 and 5000),
	CONSTRAINT "event_messages_addressed_positive" CHECK ("event_messages"."addressed" >= 1)
);
--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "event_id" uuid;--> statement-breakpoint
ALTER TABLE "event_messages" ADD CONSTRAINT "event_messages_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_messages" ADD CONSTRAINT "event_messages_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_messages" ADD CONSTRAINT "event_messages_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_messages_event_sent_idx" ON "event_messages" USING btree ("event_id","sent_at");--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "donations_event_id_idx" ON "donations" USING btree ("event_id");