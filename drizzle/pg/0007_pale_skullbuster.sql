DROP INDEX "inbound_events_status";--> statement-breakpoint
DROP INDEX "inbound_events_age";--> statement-breakpoint
DROP INDEX "inbound_events_kind";--> statement-breakpoint
DROP INDEX "inbound_events_filter";--> statement-breakpoint
DROP INDEX "inbound_events_recent";--> statement-breakpoint
DROP INDEX "inbound_events_status_page";--> statement-breakpoint
DROP INDEX "inbound_events_kind_status_page";--> statement-breakpoint
CREATE INDEX "inbound_events_open" ON "inbound_events" USING btree ("status","connection","id","kind") WHERE status <> 'processed';