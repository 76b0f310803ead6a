import { ToggleButton, makeStyles, tokens } from '@fluentui/react-components';
import { MailRegular } from '@fluentui/react-icons/svg/mail';
import { errorMessage } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { LIST_PAGE_SIZES, ListScreen, PagedListSection, useQueryParams } from '@mailroom/ui';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useCampaigns, useCreateCampaign } from '../api/campaigns';
import { CampaignsTable } from '../components/CampaignsTable';

/** The query value of the waiting requests (send approval, issue 27): `/campaigns?status=awaiting`. */
export const AWAITING = 'awaiting';

const useStyles = makeStyles({ filter: { display: 'flex', gap: tokens.spacingHorizontalS } });

/** /campaigns: the campaigns, searched by name and paged through the query string; `?status=awaiting` the waiting requests. */
export function CampaignsListRoute() {
  const { basePath, notify } = useRemote();
  const styles = useStyles();
  const navigate = useNavigate();
  const params = useQueryParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const awaiting = searchParams.get('status') === AWAITING;
  const campaigns = useCampaigns({ page: params.page, limit: params.limit, name: params.name, awaiting });
  const createCampaign = useCreateCampaign();

  const create = () =>
    createCampaign.mutate(undefined, {
      onSuccess: (id) => navigate(`${basePath}/edit/${id}`),
      onError: (error) => notify('error', errorMessage(error, 'Failed to create campaign')),
    });

  /** Another filter starts at its first page. */
  const showAwaiting = (only: boolean) =>
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      if (only) next.set('status', AWAITING);
      else next.delete('status');
      next.delete('page');
      return next;
    });

  return (
    <ListScreen
      title="Campaigns"
      createLabel="Create Campaign"
      createNeeds={{ role: 'editor', action: 'create campaigns' }}
      creating={createCampaign.isPending}
      onCreate={create}
    >
      {/* Two pressed-or-not buttons rather than a tab list: the same choice, and the move to /campaigns stays within
          its 60 KB (Fluent's TabList would be this remote's alone). */}
      <div role="group" aria-label="Which campaigns" className={styles.filter}>
        <ToggleButton checked={!awaiting} onClick={() => showAwaiting(false)}>
          All campaigns
        </ToggleButton>
        <ToggleButton checked={awaiting} onClick={() => showAwaiting(true)}>
          Awaiting approval
        </ToggleButton>
      </div>
      <PagedListSection
        noun="Campaigns"
        params={params}
        query={campaigns}
        empty={
          awaiting
            ? { icon: <MailRegular />, hint: 'No campaign is waiting for approval.' }
            : { icon: <MailRegular />, hint: 'Create a campaign to send a template to an audience.' }
        }
        pageSizeOptions={LIST_PAGE_SIZES}
      >
        {(campaigns) => <CampaignsTable campaigns={campaigns} />}
      </PagedListSection>
    </ListScreen>
  );
}
