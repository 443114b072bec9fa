ALTER TABLE `inbound_events` ADD `payload_pruned_at` integer;--> statement-breakpoint
CREATE INDEX `inbound_events_age` ON `inbound_events` (`status`,`received_at`);--> statement-breakpoint
CREATE INDEX `confirmations_age` ON `confirmations` (`created_at`);--> statement-breakpoint
CREATE INDEX `outbound_records_state_age` ON `outbound_records` (`state`,`updated_at`);--> statement-breakpoint
CREATE INDEX `stock_ledger_age` ON `stock_ledger` (`created_at`);