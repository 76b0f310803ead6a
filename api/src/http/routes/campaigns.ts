/**
 * The campaign calls (docs/product.md, The calls, and `POST /api/campaigns/{id}/continue`, `.../schedule`,
 * `.../unschedule`). Thin: read the request, call the campaign services (campaigns, scheduling, follow-ups,
 * test mails), answer. openapi.yaml has already validated (and typed) the inputs; the services'
 * DomainErrors become statuses in the one error handler.
 */
import type { CampaignStatus, FollowUpRecipients, TestEmail } from '@mailroom/api-client';
import { Router } from 'express';
import { memberOf } from '../../auth/middleware.js';
import type { AppDeps } from '../../deps.js';
import type { CampaignUpdate } from '../../services/campaigns/campaign-service.js';
import { bool, id, pageQuery, str } from '../request.js';

export function campaignsRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const { campaigns, scheduling, followUps, testMails, approvals } = services;
  const router = Router();
  const member = memberOf;

  router.get('/api/campaigns', async (req, res) => {
    res.json(
      await campaigns.list({ ...pageQuery(req), name: str(req.query.name), status: str(req.query.status) as CampaignStatus | undefined }),
    );
  });

  router.post('/api/campaigns', async (req, res) => {
    res.status(201).json(await campaigns.create(req.body as { name: string; templateId?: number }, member(req)));
  });

  router.get('/api/campaigns/authorized-sent-emails', (_req, res) => {
    res.json(campaigns.authorizedSenders());
  });

  router.post('/api/campaigns/send-test-email', async (req, res) => {
    res.json(await testMails.sendTest(req.body as TestEmail, member(req)));
  });

  router.post('/api/campaigns/test-render-email', async (req, res) => {
    res.json(await testMails.renderTest(req.body as { templateId: number; contactId?: number; subject?: string; previewText?: string }));
  });

  router.post('/api/campaigns/validate-campaign', async (req, res) => {
    res.json(
      await campaigns.validate(
        req.body as { templateId: number; audienceId: number; subject?: string; previewText?: string; campaignId?: number },
      ),
    );
  });

  router.get('/api/campaigns/:id', async (req, res) => {
    const campaign = await approvals.withApproval(await campaigns.get(id(req)));
    // The contract's names (job_success_count, jobSuccessCount) for the campaign's delivered count.
    if (bool(req.query.job_success_count) !== true) res.json(campaign);
    else res.json({ ...campaign, jobSuccessCount: await campaigns.deliveredCount(campaign.id) });
  });

  router.put('/api/campaigns/:id', async (req, res) => {
    res.json(await campaigns.update(id(req), req.body as CampaignUpdate, member(req)));
  });

  router.delete('/api/campaigns/:id', async (req, res) => {
    await campaigns.remove(id(req), member(req));
    res.status(204).end();
  });

  router.post('/api/campaigns/:id/send', async (req, res) => {
    res.status(202).json(await campaigns.send(id(req), member(req)));
  });

  router.post('/api/campaigns/:id/continue', async (req, res) => {
    res.status(202).json(await campaigns.continue(id(req), member(req)));
  });

  router.post('/api/campaigns/:id/stop', async (req, res) => {
    res.json(await campaigns.stop(id(req), member(req)));
  });

  router.post('/api/campaigns/:id/schedule', async (req, res) => {
    res.json(await scheduling.schedule(id(req), (req.body as { at: string }).at, member(req)));
  });

  router.post('/api/campaigns/:id/unschedule', async (req, res) => {
    res.json(await scheduling.unschedule(id(req), member(req)));
  });

  // Send approval (issue 27, services/approvals): a request, its withdrawal, and another member's answer.
  router.post('/api/campaigns/:id/approval-request', async (req, res) => {
    const { at } = req.body as { at?: string };
    res.json(await approvals.withApproval(await approvals.request(id(req), { at }, member(req))));
  });

  router.delete('/api/campaigns/:id/approval-request', async (req, res) => {
    res.json(await approvals.withApproval(await approvals.withdraw(id(req), member(req))));
  });

  router.post('/api/campaigns/:id/approve', async (req, res) => {
    res.status(202).json(await approvals.approve(id(req), member(req)));
  });

  router.post('/api/campaigns/:id/decline', async (req, res) => {
    const { reason } = req.body as { reason: string };
    res.json(await approvals.withApproval(await approvals.decline(id(req), reason, member(req))));
  });

  router.post('/api/campaigns/:id/replicate', async (req, res) => {
    res.status(201).json(await campaigns.replicate(id(req), member(req)));
  });

  router.post('/api/campaigns/:id/follow-up', async (req, res) => {
    const { recipients } = req.body as { recipients: FollowUpRecipients };
    // 200 with the follow-up not sent yet when this one was asked for again (an addition: README, follow-ups).
    const { campaign, created } = await followUps.followUp(id(req), recipients, member(req));
    res.status(created ? 201 : 200).json(campaign);
  });

  router.get('/api/campaigns/:id/reached-recipients', async (req, res) => {
    res.json(await followUps.reachedRecipients(id(req)));
  });

  router.get('/api/campaigns/:id/recipients', async (req, res) => {
    res.json(await followUps.recipients(id(req), pageQuery(req)));
  });

  return router;
}
