import type { ConsentEvent } from '@mailroom/api-client';
import { Text } from '@fluentui/react-components';
import { formatDateTime } from '@mailroom/ui';

/** How an address came to be mailed, one line an event: the person's page and the contact drawer say it alike. */
export function ConsentList({ events, className }: { events: ConsentEvent[]; className?: string }) {
  if (events.length === 0) return <Text>No consent is recorded.</Text>;
  return (
    <ul className={className}>
      {events.map((event) => (
        <li key={`${event.audienceId}-${event.kind}-${event.at}`}>
          {event.kind === 'hand' ? 'Added by hand to' : 'Imported into'} {event.audienceName} on {formatDateTime(event.at)}
          {event.by ? ` by ${event.by}` : ''}
        </li>
      ))}
    </ul>
  );
}
