import { Button, Title1, makeStyles, tokens } from '@fluentui/react-components';
import { AddRegular, PeopleRegular } from '@fluentui/react-icons';
import { LIST_PAGE_SIZES, NameSearchForm, PagedTableFooter, QueryStateSwitch, useQueryParams } from '@mailroom/ui';
import { useState } from 'react';
import { useAudiences } from '../api/audiences';
import { AudiencesTable } from '../components/AudiencesTable';
import { CreateAudienceDialog } from '../components/CreateAudienceDialog';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
});

/** /audiences: the audiences, searched by name and paged through the query string. */
export function AudiencesListRoute() {
  const styles = useStyles();
  const { page, limit, name, setParams } = useQueryParams();
  const [creating, setCreating] = useState(false);
  const audiences = useAudiences({ page, limit, name });

  return (
    <section className={styles.root} aria-labelledby="audiences-title">
      <div className={styles.header}>
        <Title1 as="h1" id="audiences-title">
          Audiences
        </Title1>
        <Button appearance="primary" icon={<AddRegular />} onClick={() => setCreating(true)}>
          Create Audience
        </Button>
      </div>

      <NameSearchForm value={name} onSearch={(text) => setParams({ name: text, page: 1 })} />

      <QueryStateSwitch
        query={audiences}
        loadingLabel="Loading audiences..."
        errorTitle="Failed to load audiences"
        isEmpty={(data) => data.items.length === 0}
        empty={{
          icon: <PeopleRegular />,
          title: name ? `No audiences match “${name}”` : 'No audiences yet',
          description: name ? 'Try another name.' : 'Create an audience, then import its contacts.',
        }}
      >
        {(data) => (
          <div>
            <AudiencesTable audiences={data.items} />
            <PagedTableFooter
              label="Audiences"
              page={page}
              pageSize={limit}
              totalItems={data.meta.totalItems}
              pageSizeOptions={LIST_PAGE_SIZES}
              onPageChange={(next) => setParams({ page: next })}
              onPageSizeChange={(size) => setParams({ limit: size === 'all' ? limit : size, page: 1 })}
            />
          </div>
        )}
      </QueryStateSwitch>

      {creating && <CreateAudienceDialog onClose={() => setCreating(false)} />}
    </section>
  );
}
