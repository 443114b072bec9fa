ALTER TABLE "inbound_events" ADD COLUMN "payload_pruned_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "confirmations_age" ON "confirmations" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "inbound_events_age" ON "inbound_events" USING btree ("status","received_at");--> statement-breakpoint
CREATE INDEX "outbound_records_state_age" ON "outbound_records" USING btree ("state","updated_at");--> statement-breakpoint
CREATE INDEX "stock_ledger_age" ON "stock_ledger" USING btree ("created_at");