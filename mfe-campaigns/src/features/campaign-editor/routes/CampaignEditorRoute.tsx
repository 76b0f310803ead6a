import { Spinner } from '@fluentui/react-components';
import { parseRouteId } from '@mailroom/ui';
import { useParams } from 'react-router-dom';
import { useCampaign } from '../api/campaign';
import { CampaignEditor } from '../components/CampaignEditor';
import { CampaignNotFound } from '../components/CampaignNotFound';

/** /campaigns/edit/{id}: the campaign's draft email. */
export function CampaignEditorRoute() {
  const id = parseRouteId(useParams().id);
  const campaign = useCampaign(id ?? 0);

  if (id !== null && campaign.isPending) return <Spinner label="Loading campaign..." />;
  if (!campaign.data) return <CampaignNotFound error={id === null ? null : campaign.error} onRetry={() => void campaign.refetch()} />;
  // Keyed by campaign: the form starts again from the stored campaign when another one is opened.
  return <CampaignEditor key={campaign.data.id} campaign={campaign.data} />;
}
