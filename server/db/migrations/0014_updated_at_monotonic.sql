-- updated_at (product_requests, tracking_links) must move forward on every UPDATE (migration 0007): the client keeps the copy with
-- the later updatedAt. clock_timestamp() alone does not promise that: two updates of one row within the clock's
-- resolution get the same time (PGlite's WebAssembly clock is coarse; the constraints test saw it). One
-- microsecond past the row's previous value is the least a later write can stamp.
CREATE OR REPLACE FUNCTION set_updated_at() RETURNS trigger AS $$
BEGIN
  NEW.updated_at := greatest(clock_timestamp(), OLD.updated_at + interval '1 microsecond');
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
