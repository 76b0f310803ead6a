import { Button, Spinner, Title1, makeStyles, tokens } from '@fluentui/react-components';
import { AddRegular, MailRegular } from '@fluentui/react-icons';
import { errorMessage } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { NameSearchForm, PagedTableFooter, QueryStateSwitch, useQueryParams } from '@mailroom/ui';
import { useNavigate } from 'react-router-dom';
import { useCampaigns, useCreateCampaign } from '../api/campaigns';
import { CampaignsTable } from '../components/CampaignsTable';

const PAGE_SIZES = [5, 10, 25, 50] as const;

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
});

/** /campaigns: the campaigns, searched by name and paged through the query string. */
export function CampaignsListRoute() {
  const styles = useStyles();
  const { basePath, notify } = useRemote();
  const navigate = useNavigate();
  const { page, limit, name, setParams } = useQueryParams();
  const campaigns = useCampaigns({ page, limit, name });
  const createCampaign = useCreateCampaign();

  const create = () =>
    createCampaign.mutate(undefined, {
      onSuccess: (id) => navigate(`${basePath}/edit/${id}`),
      onError: (error) => notify('error', errorMessage(error, 'Failed to create campaign')),
    });

  return (
    <section className={styles.root} aria-labelledby="campaigns-title">
      <div className={styles.header}>
        <Title1 as="h1" id="campaigns-title">
          Campaigns
        </Title1>
        <Button
          appearance="primary"
          icon={createCampaign.isPending ? <Spinner size="tiny" /> : <AddRegular />}
          disabled={createCampaign.isPending}
          onClick={create}
        >
          Create Campaign
        </Button>
      </div>

      <NameSearchForm value={name} onSearch={(text) => setParams({ name: text, page: 1 })} />

      <QueryStateSwitch
        query={campaigns}
        loadingLabel="Loading campaigns..."
        errorTitle="Failed to load campaigns"
        isEmpty={(data) => data.items.length === 0}
        empty={{
          icon: <MailRegular />,
          title: name ? `No campaigns match “${name}”` : 'No campaigns yet',
          description: name ? 'Try another name.' : 'Create a campaign to send a template to an audience.',
        }}
      >
        {(data) => (
          <div>
            <CampaignsTable campaigns={data.items} />
            <PagedTableFooter
              label="Campaigns"
              page={page}
              pageSize={limit}
              totalItems={data.meta.totalItems}
              pageSizeOptions={PAGE_SIZES}
              onPageChange={(next) => setParams({ page: next })}
              onPageSizeChange={(size) => setParams({ limit: size === 'all' ? limit : size, page: 1 })}
            />
          </div>
        )}
      </QueryStateSwitch>
    </section>
  );
}
