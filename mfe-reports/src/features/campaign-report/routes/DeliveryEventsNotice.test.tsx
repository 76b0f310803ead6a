import { json } from '@mailroom/mf-contract/fake-api';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { campaign, createFakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';
import { DELIVERY_EVENTS_OFF } from '../components/delivery-events/DeliveryEventsNotice';

const QUOTA = { emailsSent: 0, remainingSends: 200, quotaUsedPercentage: 0, maxSendRate: 1, max24HourSend: 200 };

function setup(quota: (() => Response) | null) {
  const api = createFakeApi({ campaigns: [campaign({ id: 5, name: 'Spring news', status: 'SENT' })] });
  if (quota) api.on('GET', /^\/api\/ses-quota$/, quota);
  return { api, ...renderApp('/campaigns/reports/5', api) };
}

describe('the report says when delivery events are not configured (an addition to the spec)', () => {
  it('warns on every tab when the API says the deployment takes no delivery events', async () => {
    setup(() => json(200, { ...QUOTA, deliveryEventsConfigured: false }));
    expect(await screen.findByText('Delivery events are not configured')).toBeTruthy();
    expect(screen.getByText(DELIVERY_EVENTS_OFF, { exact: false })).toBeTruthy();
  });

  it('says nothing when they are configured, when the API does not say, or when the call fails', async () => {
    for (const answer of [
      () => json(200, { ...QUOTA, deliveryEventsConfigured: true }),
      () => json(200, QUOTA),
      () => json(500, { message: 'Internal server error' }),
    ]) {
      const { api, unmount } = setup(answer);
      await screen.findByRole('heading', { name: 'Spring news' });
      await waitFor(() => expect(api.calls('GET', '/api/ses-quota').length).toBeGreaterThan(0));
      await new Promise((done) => setTimeout(done, 50));
      expect(screen.queryByText('Delivery events are not configured')).toBeNull();
      unmount();
    }
  });
});
