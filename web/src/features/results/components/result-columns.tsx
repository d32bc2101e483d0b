import { Link } from 'react-router-dom';
import { Eye, FileDown, Mail, Trash2 } from 'lucide-react';
import {
  actionsColumn,
  IconButton,
  PassBadge,
  PercentageBadge,
  type Column,
  personColumn,
} from '../../../components/ui';
import { formatDateTime } from '../../../lib/format';
import type { AdminTranslate } from '../../../i18n/admin/admin-i18n';
import type { ResultRow } from '../api/types';
import { fromResultsList } from '../hooks/results-list-path';

/** The Results Management table's columns; `ask` opens the confirmation of a row's action. */
export function resultColumns(
  t: AdminTranslate,
  ask: (action: 'pdf' | 'resend' | 'delete', row: ResultRow) => void,
  /** The list's own search, which the detail's Back to Results returns to. */
  listSearch: string,
): Column<ResultRow>[] {
  return [
    personColumn('student', t('results.table.student'), (r: ResultRow) => r.student),
    {
      key: 'score',
      header: t('results.table.score'),
      render: (r) => (
        <div className="score-cell">
          <PercentageBadge percentage={r.percentage} />
          <span className="muted">{t('results.table.points', { score: r.score, total: r.totalPoints })}</span>
        </div>
      ),
    },
    {
      key: 'status',
      header: t('results.table.status'),
      render: (r) => (
        <PassBadge
          passed={r.passed}
          words={{ passed: t('results.table.passed'), failed: t('results.table.failed') }}
        />
      ),
    },
    {
      key: 'code',
      header: t('results.table.code'),
      priority: 'low',
      render: (r) => <span className="code">{r.assessmentCode || t('results.table.noCode')}</span>,
    },
    { key: 'completed', header: t('results.table.completed'), render: (r) => formatDateTime(r.completedAt) },
    actionsColumn(
      (r) => (
        <>
          <Link
            to={`/admin/results/${encodeURIComponent(r._id)}`}
            state={fromResultsList(listSearch)}
            className="btn btn--ghost btn--sm btn--icon"
            aria-label={t('results.table.view', { name: r.student.name })}
            title={t('results.table.view', { name: r.student.name })}
          >
            <Eye size={16} aria-hidden="true" />
          </Link>
          <IconButton
            label={t('results.table.downloadPdf', { name: r.student.name })}
            icon={<FileDown size={16} />}
            onClick={() => ask('pdf', r)}
          />
          {r.passed ? (
            <IconButton
              label={t('results.table.resend', { name: r.student.name })}
              icon={<Mail size={16} />}
              onClick={() => ask('resend', r)}
            />
          ) : (
            // Keeps the delete buttons of passed and failed rows in one column.
            <span className="row-actions__gap" aria-hidden="true" />
          )}
          <IconButton
            label={t('results.table.delete', { name: r.student.name })}
            icon={<Trash2 size={16} />}
            className="btn--danger-text"
            onClick={() => ask('delete', r)}
          />
        </>
      ),
      t('results.table.actions'),
    ),
  ];
}
