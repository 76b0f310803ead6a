import type { ConsentEvent } from '@mailroom/api-client';
import { Text } from '@fluentui/react-components';
import { formatDateTime } from '@mailroom/ui';

const HOW: Record<ConsentEvent['kind'], string> = { import: 'Imported into', hand: 'Added by hand to', form: 'Signed up to' };

/** Who gave it: the member who imported or added it, or the form the person signed up through. */
const byWhom = (event: ConsentEvent) => (event.by ? (event.kind === 'form' ? ` through the form ${event.by}` : ` by ${event.by}`) : '');

/** How an address came to be mailed, one line an event: the person's page and the contact drawer say it alike. */
export function ConsentList({ events, className }: { events: ConsentEvent[]; className?: string }) {
  if (events.length === 0) return <Text>No consent is recorded.</Text>;
  return (
    <ul className={className}>
      {events.map((event) => (
        <li key={`${event.audienceId}-${event.kind}-${event.at}`}>
          {HOW[event.kind]} {event.audienceName} on {formatDateTime(event.at)}
          {byWhom(event)}
        </li>
      ))}
    </ul>
  );
}
