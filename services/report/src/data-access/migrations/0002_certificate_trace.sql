-- A pending certificate keeps the W3C trace context of the result that earned it, so its rendering, storing
-- and announcement continue that trace (docs/operations.md, "Traces"). Expand only: older versions ignore them.
ALTER TABLE certificates ADD COLUMN traceparent text, ADD COLUMN tracestate text;
