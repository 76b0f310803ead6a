import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  expectBody,
  type BulkActionResult,
  type Campaign,
  type CampaignLink,
  type CampaignOverviewStats,
  type EmailPerformanceList,
  type ReportDomains,
  type ReportOverview,
  type ReportTimeline,
  type SendStatus,
} from '@mailroom/api-client';
import { statusMayChange } from '@mailroom/api-client/labels';
import { useApiClient } from '@mailroom/mf-contract/react';
import { SENDS_MAIL } from '@mailroom/mf-contract';
import { fileNameFromContentDisposition, saveBlob } from '@mailroom/ui';
import { reportKeys, type EmailPerformanceFilters, type EmailPerformancePageParams } from './keys';

/** How often a SENDING campaign's report is refreshed: counters, progress, rows and clicks. */
export const SENDING_REFRESH_MS = 5000;

export const refreshWhileSending = (sending: boolean) => (sending ? SENDING_REFRESH_MS : false);

export function useCampaign(id: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: reportKeys.campaign(id),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/campaigns/{id}', { params: { path: { id } }, signal });
      return expectBody<Campaign>(data);
    },
    enabled: id > 0,
    // A scheduled campaign starts by itself too: its report follows it into SENDING, then SENT or ERROR.
    refetchInterval: (query) => refreshWhileSending(!!query.state.data && statusMayChange(query.state.data.status)),
  });
}

export function useOverviewStats(id: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: reportKeys.overview(id),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/reports/{id}/overview-stat', { params: { path: { id } }, signal });
      return expectBody<CampaignOverviewStats>(data);
    },
    enabled: id > 0,
    refetchInterval: (query) => refreshWhileSending(!!query.state.data && statusMayChange(query.state.data.campaign.status)),
  });
}

/**
 * The Overview tab's outcome figures, people and machines apart (an addition to the spec). Like the
 * counters above, refreshed while the campaign sends, under the report's key so actions refresh it too.
 */
export function useReportFigures(id: number, sending: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: reportKeys.figures(id),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/reports/{id}/overview', { params: { path: { id } }, signal });
      return expectBody<ReportOverview>(data);
    },
    refetchInterval: refreshWhileSending(sending),
  });
}

/** Opens, clicks and sends per hour for the first 72 hours, then per day (an addition to the spec). */
export function useReportTimeline(id: number, sending: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: reportKeys.timeline(id),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/reports/{id}/timeline', { params: { path: { id } }, signal });
      return expectBody<ReportTimeline>(data);
    },
    refetchInterval: refreshWhileSending(sending),
  });
}

/** Deliverability by recipient domain (an addition to the spec). */
export function useReportDomains(id: number, sending: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: reportKeys.domains(id),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/reports/{id}/domains', { params: { path: { id } }, signal });
      return expectBody<ReportDomains>(data);
    },
    refetchInterval: refreshWhileSending(sending),
  });
}

/** Mails on their way to SES: a row in one of these states changes by itself soon. */
const IN_TRANSIT: ReadonlySet<SendStatus> = new Set(['QUEUED', 'SENDING']);

/**
 * A page of per-contact results; NOT_SENT is filtered and paged by the server like any other status.
 * Refreshed while the campaign is sending, and while the page shows mails in transit: after a retry or
 * a send the page and the campaign are read at once, and the campaign may already read SENT when the
 * page still caught a mail on its way, which would otherwise stay on the screen.
 */
export function useEmailPerformance(id: number, params: EmailPerformancePageParams, sending: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: reportKeys.emailPerformancePage(id, params),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/reports/{id}/email-performance', { params: { path: { id }, query: params }, signal });
      return expectBody<EmailPerformanceList>(data);
    },
    placeholderData: keepPreviousData,
    refetchInterval: (query) => refreshWhileSending(sending || !!query.state.data?.items.some((row) => IN_TRANSIT.has(row.status))),
  });
}

/** The campaign's own links; `enabled` false while another view (an A/B test variant's) is shown. */
export function useCampaignLinks(id: number, sending: boolean, enabled = true) {
  const client = useApiClient();
  return useQuery({
    enabled,
    queryKey: reportKeys.links(id),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/reports/{id}/clicks', { params: { path: { id } }, signal });
      return expectBody<CampaignLink[]>(data);
    },
    refetchInterval: refreshWhileSending(sending),
  });
}

/** Downloads the rows matching the filters as a workbook, under the name the server gives (email-performance-{id}.xlsx). */
export function useExportEmailPerformance(id: number) {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (filters: EmailPerformanceFilters) => {
      const { data, response } = await client.GET('/api/reports/{id}/export-email-performance', {
        params: { path: { id }, query: filters },
        parseAs: 'blob',
      });
      saveBlob(
        expectBody(data),
        fileNameFromContentDisposition(response.headers.get('Content-Disposition'), `email-performance-${id}.xlsx`),
      );
    },
  });
}

/** An action that queues sending: answers the server's message and refreshes the whole report. */
function useSendAction<T>(id: number, post: (variables: T) => Promise<{ message: string } | undefined>) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: SENDS_MAIL,
    mutationFn: async (variables: T) => expectBody(await post(variables)).message,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.report(id) }),
  });
}

/** A bulk action: answers what the server queued and skipped, with its message, and refreshes the whole report. */
function useBulkAction(id: number, post: () => Promise<BulkActionResult | undefined>) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: SENDS_MAIL,
    mutationFn: async () => expectBody(await post()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.report(id) }),
  });
}

export function useRetryAllFailedJobs(id: number) {
  const client = useApiClient();
  return useBulkAction(id, async () => (await client.POST('/api/reports/{id}/retry-all-failed-jobs', { params: { path: { id } } })).data);
}

export function useSendToNotSent(id: number) {
  const client = useApiClient();
  return useBulkAction(id, async () => (await client.POST('/api/reports/{id}/send-to-not-sent', { params: { path: { id } } })).data);
}

export function useRetryJob(id: number) {
  const client = useApiClient();
  return useSendAction<number>(
    id,
    async (jobId) => (await client.POST('/api/reports/{id}/retry-job/{jobId}', { params: { path: { id, jobId } } })).data,
  );
}

export function useSendToContact(id: number) {
  const client = useApiClient();
  return useSendAction<number>(
    id,
    async (contactId) => (await client.POST('/api/reports/{id}/send-to-contact/{contactId}', { params: { path: { id, contactId } } })).data,
  );
}

/** Queues again the UNKNOWN mails no SES event confirmed (an addition to the spec); some may go out twice. */
export function useResendUnconfirmed(id: number) {
  const client = useApiClient();
  return useBulkAction(id, async () => (await client.POST('/api/reports/{id}/resend-unconfirmed', { params: { path: { id } } })).data);
}
