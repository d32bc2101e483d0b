import { Link } from 'react-router-dom';
import { Eye, FileDown, Mail, Trash2 } from 'lucide-react';
import {
  actionsColumn,
  IconButton,
  PassBadge,
  PercentageBadge,
  Person,
  type Column,
} from '../../../components/ui';
import { formatDateTime } from '../../../lib/format';
import type { ResultRow } from '../api/types';

/** The Results Management table's columns; `ask` opens the confirmation of a row's action. */
export function resultColumns(
  ask: (action: 'pdf' | 'resend' | 'delete', row: ResultRow) => void,
): Column<ResultRow>[] {
  return [
    {
      key: 'student',
      header: 'Student',
      render: (r) => <Person name={r.student.name} email={r.student.email} />,
    },
    {
      key: 'score',
      header: 'Score',
      render: (r) => (
        <div className="score-cell">
          <PercentageBadge percentage={r.percentage} />
          <span className="muted">
            {r.score} / {r.totalPoints}
          </span>
        </div>
      ),
    },
    { key: 'status', header: 'Status', render: (r) => <PassBadge passed={r.passed} /> },
    {
      key: 'code',
      header: 'Assessment Code',
      priority: 'low',
      render: (r) => <span className="code">{r.assessmentCode || 'N/A'}</span>,
    },
    { key: 'completed', header: 'Completed', render: (r) => formatDateTime(r.completedAt) },
    actionsColumn((r) => (
      <>
        <Link
          to={`/admin/results/${encodeURIComponent(r._id)}`}
          className="btn btn--ghost btn--sm btn--icon"
          aria-label={`View result of ${r.student.name}`}
          title={`View result of ${r.student.name}`}
        >
          <Eye size={16} aria-hidden="true" />
        </Link>
        <IconButton
          label={`Download PDF report of ${r.student.name}`}
          icon={<FileDown size={16} />}
          onClick={() => ask('pdf', r)}
        />
        {r.passed ? (
          <IconButton
            label={`Resend certificate to ${r.student.name}`}
            icon={<Mail size={16} />}
            onClick={() => ask('resend', r)}
          />
        ) : (
          // Keeps the delete buttons of passed and failed rows in one column.
          <span className="row-actions__gap" aria-hidden="true" />
        )}
        <IconButton
          label={`Delete result of ${r.student.name}`}
          icon={<Trash2 size={16} />}
          className="btn--danger-text"
          onClick={() => ask('delete', r)}
        />
      </>
    )),
  ];
}
