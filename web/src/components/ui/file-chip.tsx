import type { ReactNode } from 'react';
import { formatBytes } from '../../lib/format';
import { Button, type ButtonProps } from './button';

interface FileChipProps {
  file: { originalName: string; size: number };
  icon: ReactNode;
  /** The small ghost button after the file's name and size (Download, Remove). */
  action: ButtonProps;
  /** The chip's class, and its name's. */
  classes?: [string, string];
}

/** A file on one line: its icon, name and size, then what can be done with it. */
export function FileChip({ file, icon, action, classes = ['file-chip', 'file-chip__name'] }: FileChipProps) {
  return (
    <div className={classes[0]}>
      {icon}
      <span className={classes[1]}>{file.originalName}</span>
      <span className="muted">{formatBytes(file.size)}</span>
      <Button variant="ghost" size="sm" {...action} />
    </div>
  );
}
