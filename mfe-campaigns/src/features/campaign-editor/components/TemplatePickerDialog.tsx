import type { TemplateSummary } from '@mailroom/api-client';
import { DATE_TIME_MINUTES_FORMAT, formatDateTime } from '@mailroom/ui';
import { useTemplatePage } from '../api/pickers';
import { PickerDialog } from './PickerDialog';
import { TemplatePreviewImage } from './TemplatePreviewImage';

const COLUMNS = [
  { header: 'Preview', cell: (template: TemplateSummary) => <TemplatePreviewImage name={template.name} preview={template.preview} /> },
  // Templates' dates are to the minute, as the templates list shows them (docs/product.md, Limits and constants).
  { header: 'Last edited', cell: (template: TemplateSummary) => formatDateTime(template.updatedAt, DATE_TIME_MINUTES_FORMAT) },
];

/** Chooses the campaign's template; it does not lead to the template editor (docs/product.md, Campaign editor). */
export function TemplatePickerDialog(props: {
  selectedId: number | null;
  onSelect: (template: TemplateSummary) => void;
  onClose: () => void;
}) {
  return <PickerDialog title="Choose a template" itemsLabel="Templates" usePage={useTemplatePage} columns={COLUMNS} {...props} />;
}
