-- A notification claim is a lease: the process that claims a notification holds it until `lease_until` and marks
-- it sent (`sent_at`) once handled. A process that dies while sending leaves it unsent: once the lease runs out (or
-- the same process restarts), the repair pass sends it again, once (`attempts` counts the claims).

ALTER TABLE notifications ADD COLUMN owner TEXT;

ALTER TABLE notifications ADD COLUMN lease_until BIGINT;

ALTER TABLE notifications ADD COLUMN sent_at BIGINT;

ALTER TABLE notifications ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;

-- the direct message sent, while its button is live: taken off when the turn passes (even after a restart)
ALTER TABLE notifications ADD COLUMN message_channel_id BIGINT;

ALTER TABLE notifications ADD COLUMN message_id BIGINT;

-- claims made before leases were sent at once
UPDATE notifications SET sent_at = claimed_at;

CREATE INDEX notifications_unsent ON notifications (lease_until) WHERE sent_at IS NULL;
