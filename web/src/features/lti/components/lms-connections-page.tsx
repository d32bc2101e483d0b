import { useEffect, useState } from 'react';
import { Plus, PlugZap } from 'lucide-react';
import { Button, Card, ListTable } from '../../../components/ui';
import { notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { useGetLtiPlatformsQuery } from '../api/lti-api';
import { platformColumns } from './lti-columns';
import { usePlatformDelete, usePlatformToggle } from './platform-dialogs';
import { PlatformFormModal, type PlatformFormTarget } from './platform-form-modal';
import { ToolUrlsCard } from './tool-urls-card';

/** Admin Management → LMS connections (super admins): what to paste into an LMS, and the LTI 1.3 registrations. */
export function LmsConnectionsPage() {
  const t = useAdminT();
  const { data: platforms = [], isLoading, error: loadError } = useGetLtiPlatformsQuery();
  const [formTarget, setFormTarget] = useState<PlatformFormTarget | null>(null);
  const toggle = usePlatformToggle();
  const remove = usePlatformDelete();

  useEffect(() => {
    if (loadError) notifyFailure(loadError, adminT('lti.list.loadFailed'), { serverMessage: false });
  }, [loadError]);

  const columns = platformColumns({
    togglingId: toggle.togglingId,
    onEdit: setFormTarget,
    onToggle: toggle.ask,
    onDelete: remove.ask,
    t,
  });

  return (
    <div className="stack">
      <ToolUrlsCard />
      <Card
        title={t('lti.list.title')}
        actions={
          <Button
            icon={<Plus size={18} aria-hidden="true" />}
            onClick={() => setFormTarget({ adding: true })}
          >
            {t('lti.list.add')}
          </Button>
        }
      >
        <ListTable
          loading={isLoading}
          loadingLabel={t('lti.list.loading')}
          caption={t('lti.list.title')}
          columns={columns}
          rows={platforms}
          rowKey={(p) => p.id}
          empty={{
            icon: <PlugZap size={28} />,
            title: t('lti.list.empty'),
            description: t('lti.list.emptyHelp'),
          }}
        />
      </Card>
      <PlatformFormModal target={formTarget} onClose={() => setFormTarget(null)} />
      {toggle.dialog}
      {remove.dialog}
    </div>
  );
}
