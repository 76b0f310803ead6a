import { errorMessage } from '@mailroom/api-client';
import { Button, Field, Input, Spinner, Title1, makeStyles, tokens } from '@fluentui/react-components';
import { AddRegular, PeopleRegular, SearchRegular } from '@fluentui/react-icons';
import { EmptyState, ErrorPanel, PagedTableFooter, useQueryParams } from '@mailroom/ui';
import { useEffect, useState, type FormEvent } from 'react';
import { useAudiences } from '../api/audiences';
import { AudiencesTable } from '../components/AudiencesTable';
import { CreateAudienceDialog } from '../components/CreateAudienceDialog';

const PAGE_SIZES = [5, 10, 25, 50] as const;

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  search: { display: 'flex', alignItems: 'flex-end', columnGap: tokens.spacingHorizontalS },
  searchInput: { minWidth: '260px' },
});

/** /audiences: the audiences, searched by name and paged through the query string. */
export function AudiencesListRoute() {
  const styles = useStyles();
  const { page, limit, name, setParams } = useQueryParams();
  const [searchText, setSearchText] = useState(name);
  const [creating, setCreating] = useState(false);
  const audiences = useAudiences({ page, limit, name });

  // The box follows the URL when it changes from outside (back/forward).
  useEffect(() => setSearchText(name), [name]);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setParams({ name: searchText, page: 1 });
  };

  const items = audiences.data?.items ?? [];
  const pageSizes = PAGE_SIZES.includes(limit as (typeof PAGE_SIZES)[number]) ? PAGE_SIZES : [...PAGE_SIZES, limit].sort((a, b) => a - b);

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

      <form role="search" className={styles.search} onSubmit={search}>
        <Field label="Search by name">
          <Input
            className={styles.searchInput}
            type="search"
            value={searchText}
            contentBefore={<SearchRegular />}
            onChange={(_, data) => setSearchText(data.value)}
          />
        </Field>
        <Button type="submit">Search</Button>
      </form>

      {audiences.isPending ? (
        <Spinner label="Loading audiences..." />
      ) : audiences.isError ? (
        <ErrorPanel
          title="Failed to load audiences"
          message={errorMessage(audiences.error, 'Failed to load audiences')}
          onRetry={() => void audiences.refetch()}
        />
      ) : items.length === 0 ? (
        <EmptyState
          icon={<PeopleRegular />}
          title={name ? `No audiences match “${name}”` : 'No audiences yet'}
          description={name ? 'Try another name.' : 'Create an audience, then import its contacts.'}
        />
      ) : (
        <div>
          <AudiencesTable audiences={items} />
          <PagedTableFooter
            label="Audiences"
            page={page}
            pageSize={limit}
            totalItems={audiences.data.meta.totalItems}
            pageSizeOptions={pageSizes}
            onPageChange={(next) => setParams({ page: next })}
            onPageSizeChange={(size) => setParams({ limit: size === 'all' ? limit : size, page: 1 })}
          />
        </div>
      )}

      {creating && <CreateAudienceDialog onClose={() => setCreating(false)} />}
    </section>
  );
}
