-- The delivery queue's claim (docs/alerts.md, "Delivery") reads a channel's oldest due row and the
-- rows leased now; without these it scanned the whole queue at every claim (about 60 ms a claim
-- with 10,000 queued alerts on the embedded store, a third of the worker's time).
create index alert_deliveries_channel_due_idx
  on public.alert_deliveries (channel_id, due_at nulls first, created_at, id);
create index alert_deliveries_leased_idx
  on public.alert_deliveries (lease_until) where lease_until is not null;
