export {
  DATE_TIME_FORMAT,
  DATE_TIME_MINUTES_FORMAT,
  TRUNCATE_LENGTH,
  formatDateTime,
  formatInMemberZone,
  memberTimeZone,
  truncate,
} from './format';
export { counted, plural } from './plural';
export { fileNameFromContentDisposition, saveBlob } from './download';
export { useDebouncedValue } from './useDebouncedValue';
export {
  DEFAULT_LIMIT,
  DEFAULT_PAGE,
  LIST_PAGE_SIZES,
  MAX_LIST_LIMIT,
  MAX_LIST_PAGE,
  useQueryParams,
  type ListQueryParams,
  type SetParamsOptions,
} from './useQueryParams';
export { isEmptyList, isPastTheEnd, usePageInRange, type PageInRangeOptions, type PageOfItems } from './usePageInRange';
export { KeysetPager, type KeysetPagerProps } from './KeysetPager';
export { PagedTableFooter, pageSizeChoices, totalPagesOf, type PageSize, type PagedTableFooterProps } from './PagedTableFooter';
export { TruncatedText, type TruncatedTextProps } from './TruncatedText';
export { ScrollingTable, type ScrollingTableProps } from './ScrollingTable';
export {
  CellItems,
  ColumnHeaders,
  DetailLine,
  LastEdited,
  NameWithDetails,
  type ColumnHeader,
  type LastEditedProps,
  type NameWithDetailsProps,
} from './TableCells';
export { DeleteMenuItem, RenameMenuItem, RowActions, type RowActionsProps, type RowMenuItemProps } from './RowActions';
export { IconButton, type IconButtonProps } from './IconButton';
export { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog';
export { FullScreenDialog, type FullScreenDialogProps } from './FullScreenDialog';
export {
  CampaignStatusBadge,
  quotaPausedText,
  SENDING_STOPPED,
  type CampaignStatusBadgeProps,
  type PausedFor,
} from './CampaignStatusBadge';
export { EmailFrame, type EmailFrameProps } from './EmailFrame';
export { FormDialog, type FormDialogProps } from './FormDialog';
export { FollowUpDialog, type FollowUpDialogProps } from './FollowUpDialog';
export { useFollowUpCampaign, type FollowUpCampaignOptions } from './useFollowUpCampaign';
export { EmptyState, type EmptyStateProps } from './EmptyState';
export { ErrorPanel, type ErrorPanelProps } from './ErrorPanel';
export { RouterLink, parseRouteId, type RouterLinkProps } from './routing';
export { NameSearchForm, type NameSearchFormProps } from './NameSearchForm';
export { QueryStateSwitch, type QueryStateLike, type QueryStateSwitchProps } from './QueryStateSwitch';
export { ListScreen, type ListScreenProps } from './ListScreen';
export { PagedListSection, type ListParams, type PagedListSectionProps } from './PagedListSection';
export { NameDialog, type NameDialogProps } from './NameDialog';
export { EditableTitle, type EditableTitleProps } from './EditableTitle';
export { RoleGate, useRole, useRoleAllows, whoCanDo, type RoleGateProps, type RoleLock } from './RoleGate';
