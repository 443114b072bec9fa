DROP INDEX `inbound_events_received`;--> statement-breakpoint
CREATE INDEX `inbound_events_status_page` ON `inbound_events` (`connection`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `inbound_events_kind_status_page` ON `inbound_events` (`connection`,`kind`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `inbound_events_received` ON `inbound_events` (`received_at`,`id`);