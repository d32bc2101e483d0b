import { Router, type RequestHandler } from 'express';
import type { MailCatcher } from '@readiness/dev-servers';
import { escapeHtml } from '../../domain/templates';

/**
 * The caught-mail pages of `make start`: `GET /dev/mail` (JSON) and `GET /dev/mail/view` (a page). Only the
 * all-in-one launcher mounts them, on the gateway, with the embedded SMTP catcher; no other mode has them.
 *
 * Caught mail holds every student's personal link. With `requireAdmin` (the launcher listening beyond loopback)
 * both answer signed-in admins only: the page, opened without a token, is a shell that asks for itself again with
 * the admin token the portal keeps in this browser.
 */
export function devMailRoutes(catcher: Pick<MailCatcher, 'list'>, requireAdmin?: RequestHandler): Router {
  const router = Router();
  const guard: RequestHandler[] = requireAdmin ? [requireAdmin] : [];
  const mails = () =>
    catcher.list().map((m) => ({
      id: m.id,
      to: m.to,
      from: m.from,
      subject: m.subject,
      text: m.text,
      html: m.html,
      date: m.date,
      attachments: m.attachments.map((a) => a.filename),
      // What each attachment is, for a reader checking that a certificate really came as a PDF.
      attachmentDetails: m.attachments.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        size: a.size,
      })),
    }));

  router.get('/dev/mail', ...guard, (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(mails());
  });

  if (requireAdmin) {
    router.get('/dev/mail/view', (req, res, next) => {
      if (req.headers.authorization) return next();
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Content-Security-Policy', `${VIEW_POLICY}; script-src 'self'; connect-src 'self'`);
      res.type('html').send(SIGNED_IN_SHELL);
    });
    router.get('/dev/mail/view.js', (_req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.type('text/javascript').send(SIGNED_IN_SCRIPT);
    });
  }

  router.get('/dev/mail/view', ...guard, (_req, res) => {
    const list = mails();
    const items = list
      .map(
        (m) => `<article>
  <header><h2>${escapeHtml(m.subject || '(no subject)')}</h2>
  <p><strong>To:</strong> ${escapeHtml(m.to.join(', '))} &middot; <strong>From:</strong> ${escapeHtml(m.from)} &middot; <time>${escapeHtml(new Date(m.date).toLocaleString('en-GB'))}</time></p>
  ${m.attachments.length ? `<p><strong>Attachments:</strong> ${m.attachments.map(escapeHtml).join(', ')}</p>` : ''}</header>
  ${m.html ? `<iframe title="${escapeHtml(m.subject)}" sandbox srcdoc="${escapeHtml(m.html)}"></iframe>` : ''}
  <details><summary>Plain text</summary><pre>${escapeHtml(m.text)}</pre></details>
</article>`,
      )
      .join('\n');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', VIEW_POLICY);
    res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Caught mail · Readiness</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:24px;background:#f4f6fb;color:#1f2937}
h1{font-size:22px;margin:0 0 16px}
article{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:16px 20px;margin:0 0 16px}
h2{font-size:17px;margin:0 0 6px}
p{margin:4px 0;font-size:14px}
iframe{width:100%;height:420px;border:1px solid #e5e7eb;border-radius:6px;margin-top:10px;background:#fff}
pre{white-space:pre-wrap;font-size:13px}
</style></head>
<body><main><h1>Caught mail (${list.length})</h1>
${items || '<p>No mail has been sent yet.</p>'}
</main></body></html>`);
  });
  return router;
}

const VIEW_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'";

const SIGNED_IN_SHELL = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Caught mail · Readiness</title><script src="/dev/mail/view.js" defer></script></head>
<body style="font-family:system-ui,sans-serif;margin:0;padding:24px"><main><h1>Caught mail</h1>
<p id="status" role="status">Loading…</p></main></body></html>`;

/** Fetches the page with the portal's admin token and shows it in place, or says how to sign in. */
const SIGNED_IN_SCRIPT = `(async () => {
  const status = document.getElementById('status');
  let token = null;
  try { token = localStorage.getItem('admin_token'); } catch {}
  const answer = token ? await fetch('/dev/mail/view', { headers: { Authorization: 'Bearer ' + token } }) : null;
  if (!answer || !answer.ok) {
    status.textContent = 'Caught mail is for signed-in admins. ';
    const link = document.createElement('a');
    link.href = '/admin/login';
    link.textContent = 'Sign in to the admin portal';
    status.append(link, ' in this browser, then reload this page.');
    return;
  }
  const page = new DOMParser().parseFromString(await answer.text(), 'text/html');
  document.replaceChild(document.adoptNode(page.documentElement), document.documentElement);
})();
`;
