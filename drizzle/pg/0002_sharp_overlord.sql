CREATE TABLE "inbound_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inbound_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" bigint NOT NULL,
	"connection" text NOT NULL,
	"outcome" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_event_edits" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inbound_event_edits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" bigint NOT NULL,
	"connection" text NOT NULL,
	"actor" text NOT NULL,
	"payload" text NOT NULL,
	"changes" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inbound_events" ADD COLUMN "business_code" text;--> statement-breakpoint
ALTER TABLE "inbound_events" ADD COLUMN "quarantine_reason" text;--> statement-breakpoint
ALTER TABLE "inbound_events" ADD COLUMN "correction" text;--> statement-breakpoint
CREATE INDEX "inbound_attempts_event" ON "inbound_attempts" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "inbound_event_edits_event" ON "inbound_event_edits" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "confirmations_source" ON "confirmations" USING btree ("source_event_id");--> statement-breakpoint
CREATE INDEX "inbound_events_connection" ON "inbound_events" USING btree ("connection","id");--> statement-breakpoint
CREATE INDEX "inbound_events_kind" ON "inbound_events" USING btree ("kind","id");--> statement-breakpoint
CREATE INDEX "inbound_events_code" ON "inbound_events" USING btree ("business_code","id");--> statement-breakpoint
CREATE INDEX "inbound_events_received" ON "inbound_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "inbound_events_filter" ON "inbound_events" USING btree ("connection","kind","status","received_at");