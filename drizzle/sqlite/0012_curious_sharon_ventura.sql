ALTER TABLE `feed_entries` ADD `traceparent` text;--> statement-breakpoint
ALTER TABLE `inbound_events` ADD `traceparent` text;