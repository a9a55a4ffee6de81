CREATE TABLE "offline_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"email" text,
	"amount_pence" integer NOT NULL,
	"day_of_month" integer NOT NULL,
	"status" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"first_payment_id" text NOT NULL,
	"card_brand" text,
	"card_last4" text,
	"next_charge_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"canceled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "regular_gift_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"regular_gift_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "regular_gifts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"amount_pence" integer NOT NULL,
	"day_of_month" integer NOT NULL,
	"donor_name" text NOT NULL,
	"email" text NOT NULL,
	"status" text NOT NULL,
	"provider" text NOT NULL,
	"provider_customer_id" text,
	"provider_subscription_id" text,
	"client_key" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "regular_gifts_provider_subscription_id_unique" UNIQUE("provider_subscription_id"),
	CONSTRAINT "regular_gifts_amount_range" CHECK ("regular_gifts"."amount_pence" between 100 and 1000000),
	CONSTRAINT "regular_gifts_day_range" CHECK ("regular_gifts"."day_of_month" between 1 and 28),
	CONSTRAINT "regular_gifts_status_known" CHECK ("regular_gifts"."status" in ('incomplete', 'active', 'failing', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "gift_aid_declarations" DROP CONSTRAINT "gift_aid_scope_known";--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "regular_gift_id" uuid;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "billing_month" text;--> statement-breakpoint
ALTER TABLE "regular_gift_links" ADD CONSTRAINT "regular_gift_links_regular_gift_id_regular_gifts_id_fk" FOREIGN KEY ("regular_gift_id") REFERENCES "public"."regular_gifts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "regular_gift_links_gift_idx" ON "regular_gift_links" USING btree ("regular_gift_id");--> statement-breakpoint
CREATE INDEX "regular_gifts_email_idx" ON "regular_gifts" USING btree ("email");--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_regular_gift_id_regular_gifts_id_fk" FOREIGN KEY ("regular_gift_id") REFERENCES "public"."regular_gifts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "donations_regular_gift_month_idx" ON "donations" USING btree ("regular_gift_id","billing_month");--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_gift_month_together" CHECK (("donations"."regular_gift_id" is null) = ("donations"."billing_month" is null));--> statement-breakpoint
ALTER TABLE "gift_aid_declarations" ADD CONSTRAINT "gift_aid_scope_known" CHECK ("gift_aid_declarations"."scope" in ('this-donation', 'this-and-past-four-years', 'past-four-years-and-future', 'this-and-future'));