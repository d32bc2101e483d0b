export { ActionModal, FormModal } from './action-modal';
export { Badge, type BadgeTone } from './badge';
export { AddButton, Button, ButtonLink, ExternalButtonLink, IconButton, type ButtonProps } from './button';
export { Card } from './card';
export { ConfirmDialog } from './confirm-dialog';
export { EmptyState } from './empty-state';
export { FileChip } from './file-chip';
export {
  FormField,
  Input,
  NumberInput,
  PasswordInput,
  Select,
  TextArea,
  type FieldControlProps,
  type InputProps,
} from './input';
export { Logo, LOGO_WIDTHS, type LogoSize, type LogoVariant } from './logo';
export { Modal } from './modal';
export { PageNav } from './page-nav';
export { Person, personColumn } from './person';
export { SearchInput, matchesNameOrEmail } from './search-input';
export { FullPageSpinner, Spinner } from './spinner';
export { StatCard } from './stat-card';
export { actionsColumn, ListTable, Table, type Column } from './table';
export { bandTone, PassBadge, PercentageBadge } from './score-badges';
export { UiWordsProvider, useUiWords, type UiWords } from './words';
