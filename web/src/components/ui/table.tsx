import type { ReactNode } from 'react';
import { EmptyState, type EmptyStateProps } from './empty-state';
import { Spinner } from './spinner';

export interface Column<Row> {
  key: string;
  header: string;
  render: (row: Row) => ReactNode;
  align?: 'start' | 'end';
  /** Hidden below the tablet breakpoint, where the table would otherwise scroll sideways. */
  priority?: 'high' | 'low';
}

interface TableProps<Row> {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  empty?: ReactNode;
}

/** A data table; the caption names it for screen readers, the empty slot replaces the body. */
export function Table<Row>({ caption, columns, rows, rowKey, empty }: TableProps<Row>) {
  if (rows.length === 0 && empty) return <>{empty}</>;
  const cellClass = (c: Column<Row>) =>
    [c.align === 'end' && 'cell--end', c.priority === 'low' && 'cell--low'].filter(Boolean).join(' ') ||
    undefined;
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={cellClass(c)}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.key} className={cellClass(c)} data-label={c.header}>
                  {c.render(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The last column of a list: the row's buttons, at the end of the line. */
export function actionsColumn<Row>(
  render: (row: Row) => ReactNode,
  /** The column's header in the page's language ('Actions'). */
  header: string,
): Column<Row> {
  return {
    key: 'actions',
    header,
    align: 'end',
    render: (row) => <div className="row-actions">{render(row)}</div>,
  };
}

interface ListTableProps<Row> extends Omit<TableProps<Row>, 'empty'> {
  /** The first page is on its way: a spinner with this label stands in for the table. */
  loading: boolean;
  loadingLabel: string;
  /** Another page or filter is on its way: the table shown is marked busy (for a server-paged list). */
  fetching?: boolean;
  empty: EmptyStateProps;
}

/** A list: a spinner while the first page loads, then the table, or the empty state. */
export function ListTable<Row>({ loading, loadingLabel, fetching, empty, ...table }: ListTableProps<Row>) {
  if (loading) {
    return (
      <div className="center-block">
        <Spinner label={loadingLabel} />
      </div>
    );
  }
  const list = <Table {...table} empty={<EmptyState {...empty} />} />;
  return fetching === undefined ? list : <div aria-busy={fetching}>{list}</div>;
}
