import { MailRegular } from '@fluentui/react-icons/svg/mail';
import { errorMessage } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { LIST_PAGE_SIZES, ListScreen, PagedListSection, useQueryParams } from '@mailroom/ui';
import { useNavigate } from 'react-router-dom';
import { useCampaigns, useCreateCampaign } from '../api/campaigns';
import { CampaignsTable } from '../components/CampaignsTable';

/** /campaigns: the campaigns, searched by name and paged through the query string. */
export function CampaignsListRoute() {
  const { basePath, notify } = useRemote();
  const navigate = useNavigate();
  const params = useQueryParams();
  const campaigns = useCampaigns({ page: params.page, limit: params.limit, name: params.name });
  const createCampaign = useCreateCampaign();

  const create = () =>
    createCampaign.mutate(undefined, {
      onSuccess: (id) => navigate(`${basePath}/edit/${id}`),
      onError: (error) => notify('error', errorMessage(error, 'Failed to create campaign')),
    });

  return (
    <ListScreen
      title="Campaigns"
      createLabel="Create Campaign"
      createNeeds={{ role: 'editor', action: 'create campaigns' }}
      creating={createCampaign.isPending}
      onCreate={create}
    >
      <PagedListSection
        noun="Campaigns"
        params={params}
        query={campaigns}
        empty={{ icon: <MailRegular />, hint: 'Create a campaign to send a template to an audience.' }}
        pageSizeOptions={LIST_PAGE_SIZES}
      >
        {(campaigns) => <CampaignsTable campaigns={campaigns} />}
      </PagedListSection>
    </ListScreen>
  );
}
