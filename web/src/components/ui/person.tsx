import type { ReactNode } from 'react';
import type { Column } from './table';

export interface PersonProps {
  name: string;
  email: string;
  /** Shown right after the name, e.g. "(you)". */
  nameSuffix?: ReactNode;
  /** Further lines under the e-mail, e.g. a phone number. */
  details?: string[];
}

/** A table's person cell: an initial, the name and the e-mail. */
export function Person({ name, email, nameSuffix, details = [] }: PersonProps) {
  return (
    <div className="person">
      <span className="person__avatar" aria-hidden="true">
        {name.charAt(0).toUpperCase()}
      </span>
      <div>
        <p className="person__name">
          <bdi>{name}</bdi>
          {nameSuffix}
        </p>
        <p className="person__email">{email}</p>
        {details.map((line) => (
          <p key={line} className="person__email">
            {line}
          </p>
        ))}
      </div>
    </div>
  );
}

/** A table's first column, the person the row is about: `who` says which name, e-mail and further lines it shows. */
export const personColumn = <Row,>(
  key: string,
  header: string,
  who: (row: Row) => PersonProps,
): Column<Row> => ({
  key,
  header,
  render: (row) => <Person {...who(row)} />,
});
