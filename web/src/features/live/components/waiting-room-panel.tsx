import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Button, Card, NumberInput, Spinner } from '../../../components/ui';
import { bindFields } from '../../../lib/forms';
import { failAtField } from '../../../lib/form-errors';
import { notify } from '../../../lib/toast';
import { adminT, useAdminT, type AdminTranslate } from '../../../i18n/admin/admin-i18n';
import { LIVE_POLL_MS } from '../api/live-api';
import {
  ceilingSchema,
  MAX_CEILING_PER_MINUTE,
  useGetWaitingRoomQuery,
  useSetAdmissionLimitMutation,
  type CeilingInput,
  type WaitingRoom,
  type WaitingRoomChange,
} from '../api/waiting-room-api';
import { useCalmAnnouncement } from '../hooks/use-calm-announcement';
import { useReportedOnce } from '../hooks/use-reported-once';

/** A screen-reader user hears the figures again at most this often while the line only moves. */
const ANNOUNCE_EVERY_MS = 60_000;

/** "45 s", "4 min 12 s", "1 h 5 min". */
export function waitText(t: AdminTranslate, totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  if (seconds < 60) return t('live.waiting.seconds', { seconds });
  if (seconds < 3600)
    return t('live.waiting.minutes', { minutes: Math.floor(seconds / 60), seconds: seconds % 60 });
  return t('live.waiting.hours', {
    hours: Math.floor(seconds / 3600),
    minutes: Math.floor((seconds % 3600) / 60),
  });
}

// The rate is measured to a tenth and changes every second: "about" a whole number. Without any limit (the
// `limit-only` mode with none set) there is no rate worth a number.
const rateText = (t: AdminTranslate, room: WaitingRoom) =>
  room.unlimited
    ? t('live.waiting.unlimited')
    : t('live.waiting.rate', { perMinute: Math.round(room.perMinute) });

/** What the status region says: the line's figures, or that nobody waits. */
function summary(t: AdminTranslate, room: WaitingRoom): string {
  if (room.waiting === 0) return t('live.waiting.empty');
  return t('live.waiting.summary', {
    count: room.waiting,
    longest: waitText(t, room.longestWaitSeconds),
    rate: rateText(t, room),
  });
}

/** The line's state worth announcing at once when it changes. */
const lineState = (room: WaitingRoom) => (room.waiting === 0 ? 'empty' : `line:${room.pressure}`);

/**
 * The top of the Live screen: how many students wait to start and for how long, the rate they are let in at, and a
 * limit on that rate (or Automatic: as fast as the product's measured capacity allows).
 */
export function WaitingRoomPanel() {
  const t = useAdminT();
  const { data: room, error } = useGetWaitingRoomQuery(undefined, { pollingInterval: LIVE_POLL_MS });
  useReportedOnce(error, t('live.waiting.loadFailed'));
  const announcement = useCalmAnnouncement(
    room ? summary(t, room) : null,
    room ? lineState(room) : null,
    ANNOUNCE_EVERY_MS,
  );

  return (
    <Card title={t('live.waiting.title')}>
      <div className="stack stack--tight">
        <p className="muted waiting-room__intro">{t('live.waiting.intro')}</p>
        {room ? <WaitingRoomFigures room={room} /> : !error && <Spinner label={t('live.waiting.loading')} />}
        {room?.enabled && <AdmissionLimitForm ceiling={room.ceilingPerMinute} />}
        <p className="visually-hidden" role="status" aria-live="polite">
          {announcement}
        </p>
      </div>
    </Card>
  );
}

function WaitingRoomFigures({ room }: { room: WaitingRoom }) {
  const t = useAdminT();
  if (!room.enabled) return <p>{t('live.waiting.off')}</p>;
  const overloaded = room.pressure === 'overloaded';
  return (
    <>
      {room.waiting === 0 && <p className="waiting-room__empty">{t('live.waiting.empty')}</p>}
      <dl className="waiting-room__figures">
        {room.waiting > 0 && (
          <>
            <div>
              <dt>{t('live.waiting.waitingLabel')}</dt>
              <dd className="waiting-room__value">{t('live.waiting.waiting', { count: room.waiting })}</dd>
            </div>
            <div>
              <dt>{t('live.waiting.longestLabel')}</dt>
              <dd className="waiting-room__value">{waitText(t, room.longestWaitSeconds)}</dd>
            </div>
          </>
        )}
        <div className="waiting-room__admission">
          <dt>{t('live.waiting.admissionLabel')}</dt>
          <dd className="waiting-room__value">{rateText(t, room)}</dd>
          <dd className="muted">
            {room.ceilingPerMinute === null
              ? t('live.waiting.automatic')
              : t('live.waiting.limited', { ceiling: room.ceilingPerMinute })}
          </dd>
          <dd className="muted">{t('live.waiting.admitted', { count: room.admittedLastMinute })}</dd>
        </div>
        <div>
          <dt>{t('live.waiting.pressureLabel')}</dt>
          <dd>
            <Badge tone={overloaded ? 'warning' : 'success'}>
              {overloaded ? t('live.waiting.overloaded') : t('live.waiting.healthy')}
            </Badge>
          </dd>
        </div>
      </dl>
    </>
  );
}

/** The most starts a minute, saved as the admins' limit, or cleared for Automatic. */
function AdmissionLimitForm({ ceiling }: { ceiling: number | null }) {
  const t = useAdminT();
  const [save, { isLoading: saving }] = useSetAdmissionLimitMutation();
  const form = useForm<CeilingInput>({ resolver: zodResolver(ceilingSchema) });
  const field = bindFields(form);
  const { reset, setError, handleSubmit } = form;

  // The limit someone saved (here or elsewhere) replaces the field, not each poll; Automatic empties it (an empty
  // number field's value is NaN).
  useEffect(() => {
    reset({ ceilingPerMinute: ceiling ?? NaN });
  }, [ceiling, reset]);

  const store = async (change: WaitingRoomChange) => {
    try {
      await save(change).unwrap();
      notify.success(
        change.ceilingPerMinute === null
          ? adminT('live.waiting.automaticSaved')
          : adminT('live.waiting.limitSaved'),
      );
    } catch (err) {
      failAtField(err, adminT('live.waiting.saveFailed'), { setError, fields: ['ceilingPerMinute'] });
    }
  };
  const onSave = handleSubmit(({ ceilingPerMinute }) => store({ ceilingPerMinute }));

  return (
    <form
      className="waiting-room__form"
      onSubmit={(e) => void onSave(e)}
      aria-label={t('live.waiting.formLabel')}
      noValidate
    >
      <NumberInput
        label={t('live.waiting.ceiling')}
        hint={t('live.waiting.ceilingHint')}
        min={1}
        max={MAX_CEILING_PER_MINUTE}
        step={1}
        {...field('ceilingPerMinute', { valueAsNumber: true })}
      />
      <div className="toolbar">
        <Button type="submit" loading={saving}>
          {t('live.waiting.save')}
        </Button>
        {ceiling !== null && (
          <Button
            type="button"
            variant="secondary"
            disabled={saving}
            onClick={() => void store({ ceilingPerMinute: null })}
          >
            {t('live.waiting.setAutomatic')}
          </Button>
        )}
      </div>
    </form>
  );
}
