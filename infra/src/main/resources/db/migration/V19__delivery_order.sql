-- A webhook's deliveries are sent one after the other, each once the one made before it has succeeded, been
-- dead-lettered or stopped (DeliveryDispatcher): the fan-out remembers each webhook's last delivery to name it in the
-- next, and the audit rows keep which one a delivery waits for (the sweep looks for those whose wait is over).
ALTER TABLE webhook_subscription ADD COLUMN last_delivery_id UUID;
ALTER TABLE delivery_view ADD COLUMN after_id UUID;
