import { Badge, Tooltip } from '@fluentui/react-components';
import type { Campaign } from '@mailroom/api-client';

/**
 * The campaign's status chip (docs/product.md, the screens and their states): a warning 'Sending' chip, a green 'Sent' chip, an outlined error
 * chip whose tooltip is the error message, a neutral 'Draft'.
 */
export function CampaignStatusBadge({ campaign }: { campaign: Pick<Campaign, 'status' | 'errorMessage'> }) {
  switch (campaign.status) {
    case 'SENDING':
      return <Badge color="warning">Sending</Badge>;
    case 'SENT':
      return <Badge color="success">Sent</Badge>;
    case 'ERROR':
      return campaign.errorMessage ? (
        <Tooltip content={campaign.errorMessage} relationship="description">
          <Badge appearance="outline" color="danger" tabIndex={0}>
            Error
          </Badge>
        </Tooltip>
      ) : (
        <Badge appearance="outline" color="danger">
          Error
        </Badge>
      );
    default:
      return <Badge color="informative">Draft</Badge>;
  }
}
