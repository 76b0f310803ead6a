import { Title1, makeStyles, tokens } from '@fluentui/react-components';
import { HistoryRegular } from '@fluentui/react-icons';
import type { ActivityKind, ActivityObjectType } from '@mailroom/api-client';
import { KeysetPager, QueryStateSwitch } from '@mailroom/ui';
import { useSearchParams } from 'react-router-dom';
import { useActivityPage } from '../api/activity';
import type { ActivityParams } from '../api/keys';
import { ActivityFilterBar, type ActivityFilters } from '../components/ActivityFilterBar';
import { ActivityTable } from '../components/ActivityTable';
import { KIND_LABELS, OBJECT_LABELS } from '../components/labels';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
});

const positive = (value: string | null) => (value && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : undefined);
const oneOf = <T extends string>(value: string | null, known: Record<T, string>) => (value && value in known ? (value as T) : undefined);

/** The address's filters and cursor; anything malformed is left out (the newest page, unfiltered). */
function paramsOf(search: URLSearchParams): ActivityParams {
  const entries: ActivityParams = {
    member: search.get('member')?.trim() || undefined,
    kind: oneOf<ActivityKind>(search.get('kind'), KIND_LABELS),
    objectType: oneOf<ActivityObjectType>(search.get('objectType'), OBJECT_LABELS),
    objectId: positive(search.get('objectId')),
    before: positive(search.get('before')),
    after: positive(search.get('after')),
    oldest: search.get('oldest') === 'true' || undefined,
  };
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined)) as ActivityParams;
}

/** The activity log (an addition to the spec): who did what, newest first, filtered and paged by keyset. */
export function ActivityRoute() {
  const styles = useStyles();
  const [search, setSearch] = useSearchParams();
  const params = paramsOf(search);
  const { before: _before, after: _after, oldest: _oldest, ...filters } = params;
  const query = useActivityPage(params);
  const filtered = Object.keys(filters).length > 0;

  const go = (next: ActivityParams) =>
    setSearch(Object.fromEntries(Object.entries(next).map(([key, value]) => [key, String(value)])) as Record<string, string>);

  return (
    <section className={styles.root} aria-labelledby="activity-title">
      <Title1 as="h1" id="activity-title">
        Activity
      </Title1>
      {/* Keyed by the filters: a change in the address (back, a link) shows its own values. */}
      <ActivityFilterBar key={JSON.stringify(filters)} filters={filters} onApply={(next: ActivityFilters) => go(next)} />
      <QueryStateSwitch
        query={query}
        loadingLabel="Loading activity..."
        errorTitle="Failed to load activity"
        isEmpty={(page) => page.items.length === 0}
        empty={{
          icon: <HistoryRegular />,
          title: filtered ? 'No activity matches these filters' : 'No activity yet',
          description: filtered
            ? 'Try other filters, or clear them.'
            : 'Creating, editing, renaming, deleting, importing, exporting and sending, and recipients’ unsubscribes, are recorded here.',
        }}
      >
        {(page) => (
          <div>
            <ActivityTable entries={page.items} />
            <KeysetPager
              label="Activity"
              newer={page.newer}
              older={page.older}
              onNewest={() => go(filters)}
              onNewer={(after) => go({ ...filters, after })}
              onOlder={(before) => go({ ...filters, before })}
              onOldest={() => go({ ...filters, oldest: true })}
            />
          </div>
        )}
      </QueryStateSwitch>
    </section>
  );
}
