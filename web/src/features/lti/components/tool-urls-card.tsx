import { Copy } from 'lucide-react';
import { Card, IconButton } from '../../../components/ui';
import { notify } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import type { AdminMessageId } from '../../../i18n/admin/en';
import { toolUrlsFor } from '../api/lti-api';

const ROWS: {
  key: keyof ReturnType<typeof toolUrlsFor>;
  label: AdminMessageId;
  help: AdminMessageId;
  copy: AdminMessageId;
}[] = [
  { key: 'loginUrl', label: 'lti.paste.login', help: 'lti.paste.loginHelp', copy: 'lti.paste.copyLogin' },
  { key: 'launchUrl', label: 'lti.paste.launch', help: 'lti.paste.launchHelp', copy: 'lti.paste.copyLaunch' },
  { key: 'jwksUrl', label: 'lti.paste.jwks', help: 'lti.paste.jwksHelp', copy: 'lti.paste.copyJwks' },
];

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    notify.success(adminT('lti.paste.copied'));
  } catch {
    notify.error(adminT('lti.paste.copyFailed'));
  }
}

/** The tool's three URLs, on this site's origin, that an LMS admin pastes into their LMS, each with its Copy. */
export function ToolUrlsCard() {
  const t = useAdminT();
  const urls = toolUrlsFor(window.location.origin);
  return (
    <Card title={t('lti.paste.title')}>
      <p className="muted tool-urls__intro">{t('lti.paste.intro')}</p>
      <dl className="tool-urls">
        {ROWS.map(({ key, label, help, copy: copyLabel }) => (
          <div className="tool-urls__row" key={key}>
            <dt className="tool-urls__label">{t(label)}</dt>
            <dd className="tool-urls__value">
              <code className="tool-urls__url" data-testid={`tool-url-${key}`}>
                {urls[key]}
              </code>
              <IconButton
                label={t(copyLabel)}
                icon={<Copy size={16} />}
                onClick={() => void copy(urls[key])}
              />
            </dd>
            <dd className="tool-urls__help muted">{t(help)}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
