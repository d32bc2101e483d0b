import { Paperclip, type LucideIcon } from 'lucide-react';
import { FileChip, type ButtonProps } from '../../../components/ui';
import type { DownloadableFile } from '../api/types';

interface QuestionFileChipProps extends Pick<ButtonProps, 'aria-label' | 'onClick' | 'loading'> {
  file: DownloadableFile;
  /** The action's text and icon: Download in the view, Remove in the editor. */
  label: string;
  Icon: LucideIcon;
}

/** A question's downloadable file, with the one thing the screen lets the admin do with it. */
export function QuestionFileChip({ file, label, Icon, ...action }: QuestionFileChipProps) {
  return (
    <FileChip
      file={file}
      icon={<Paperclip size={16} aria-hidden="true" />}
      action={{ children: label, icon: <Icon size={16} aria-hidden="true" />, ...action }}
    />
  );
}
