ALTER TABLE "feed_entries" ADD COLUMN "traceparent" text;--> statement-breakpoint
ALTER TABLE "inbound_events" ADD COLUMN "traceparent" text;