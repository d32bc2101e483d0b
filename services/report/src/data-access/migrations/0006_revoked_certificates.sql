-- The codes of issued certificates that were erased (their result or their student deleted), and when: a certificate's
-- Open Badges credential presented later is then answered `revoked` rather than unknown. Only the code is kept, no
-- personal data. Expand-only: an older replica neither reads nor writes it.
CREATE TABLE revoked_certificates (
  code text PRIMARY KEY,
  revoked_at timestamptz NOT NULL DEFAULT now()
);
