CREATE INDEX `inbound_events_recent` ON `inbound_events` (`connection`,`received_at`,`kind`,`status`);--> statement-breakpoint
CREATE INDEX `outbound_records_list` ON `outbound_records` (`connection`,`entity`,`state`,`id`);--> statement-breakpoint
CREATE INDEX `reconciliation_runs_list` ON `reconciliation_runs` (`connection`,`id`);