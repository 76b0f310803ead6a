import type { Audience } from '@mailroom/api-client';
import { useAudiencePage } from '../api/pickers';
import { PickerDialog } from './PickerDialog';

const COLUMNS = [
  {
    header: 'Contacts',
    cell: (audience: Audience) =>
      audience.numberOfContactsWithErrors > 0
        ? `${audience.numberOfContacts} (${audience.numberOfContactsWithErrors} invalid)`
        : String(audience.numberOfContacts),
  },
];

export function AudiencePickerDialog(props: { selectedId: number | null; onSelect: (audience: Audience) => void; onClose: () => void }) {
  return <PickerDialog title="Choose an audience" itemsLabel="Audiences" usePage={useAudiencePage} columns={COLUMNS} {...props} />;
}
