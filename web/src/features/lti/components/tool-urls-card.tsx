import { Copy, Link2 } from 'lucide-react';
import { Button, Card, IconButton } from '../../../components/ui';
import { formatDateTime } from '../../../lib/format';
import { notify, notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import type { AdminMessageId } from '../../../i18n/admin/en';
import { toolUrlsFor, useMakeRegistrationLinkMutation } from '../api/lti-api';

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
      <DynamicRegistration />
    </Card>
  );
}

/**
 * LTI Dynamic Registration (Moodle 4, Canvas): a one-time link, valid an hour, that the LMS admin pastes into the LMS
 * instead of the URLs above; the LMS then registers Readiness and the connection appears below.
 */
function DynamicRegistration() {
  const t = useAdminT();
  const [make, { data: link, isLoading }] = useMakeRegistrationLinkMutation();
  const onMake = async () => {
    try {
      await make().unwrap();
    } catch (error) {
      notifyFailure(error, adminT('lti.dynamic.failed'));
    }
  };
  return (
    <div className="tool-urls__dynamic stack">
      <p className="muted">{t('lti.dynamic.intro')}</p>
      {link ? (
        <div className="tool-urls__value">
          <code className="tool-urls__url" data-testid="registration-link">
            {link.url}
          </code>
          <IconButton
            label={t('lti.dynamic.copy')}
            icon={<Copy size={16} />}
            onClick={() => void copy(link.url)}
          />
          <p className="muted">{t('lti.dynamic.validUntil', { at: formatDateTime(link.expiresAt) })}</p>
        </div>
      ) : (
        <div>
          <Button
            variant="secondary"
            icon={<Link2 size={18} aria-hidden="true" />}
            loading={isLoading}
            onClick={() => void onMake()}
          >
            {t('lti.dynamic.make')}
          </Button>
        </div>
      )}
    </div>
  );
}
