import createClient, { createQuerySerializer, type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

export type Schemas = components['schemas'];

export type Audience = Schemas['Audience'];
export type AudienceList = Schemas['AudienceList'];
export type AudienceSource = Schemas['AudienceSource'];
export type Contact = Schemas['Contact'];
export type ContactList = Schemas['ContactList'];
export type AudienceField = Schemas['AudienceField'];
export type AudienceFieldInput = Schemas['AudienceFieldInput'];
export type AudienceFieldChange = Schemas['AudienceFieldChange'];
export type FieldInUse = Schemas['FieldInUse'];
export type Template = Schemas['Template'];
export type TemplateSummary = Schemas['TemplateSummary'];
export type TemplateList = Schemas['TemplateList'];
export type Campaign = Schemas['Campaign'];
/** A campaign's A/B test (issue 28); the API answers null for a campaign without one. */
export type AbTest = NonNullable<Schemas['AbTest']>;
export type AbTestInput = Schemas['AbTestInput'];
export type AbTestMeasure = Schemas['AbTestMeasure'];
export type AbTestVerdict = NonNullable<Schemas['AbTestVerdict']>;
export type AbTestVariantFigures = Schemas['AbTestVariantFigures'];
export type AbTestVariantClicks = Schemas['AbTestVariantClicks'];
export type CampaignSummary = Schemas['CampaignSummary'];
export type CampaignTemplate = Schemas['CampaignTemplate'];
export type CampaignStatus = Schemas['CampaignStatus'];
export type CampaignListResponse = Schemas['CampaignListResponse'];
export type CampaignOverviewStats = Schemas['CampaignOverviewStats'];
export type CampaignLink = Schemas['CampaignLink'];
export type ReportOverview = Schemas['ReportOverview'];
export type ReportTimeline = Schemas['ReportTimeline'];
export type ReportTimelineBucket = Schemas['ReportTimelineBucket'];
export type ReportDomain = Schemas['ReportDomain'];
export type ReportDomains = Schemas['ReportDomains'];
export type FollowUp = NonNullable<Schemas['FollowUp']>;
export type FollowUpRecipients = Schemas['FollowUpRecipients'];
export type ReachedRecipients = Schemas['ReachedRecipients'];
export type SendStatus = Schemas['SendStatus'];
export type BounceType = Schemas['BounceType'];
export type EmailPerformanceRow = Schemas['EmailPerformanceRow'];
export type EmailPerformanceList = Schemas['EmailPerformanceList'];
export type SuppressionReason = Schemas['SuppressionReason'];
export type MachineReason = Schemas['MachineReason'];
export type SuppressedContacts = Schemas['SuppressedContacts'];
/** A test send's body (the contract's SendTestEmailInput): the editor's dialog sends it, the API's campaign service takes it. */
export type TestEmail = Schemas['SendTestEmailInput'];
export type Suppression = Schemas['Suppression'];
export type SuppressionPage = Schemas['SuppressionPage'];
export type SuppressionAddResult = Schemas['SuppressionAddResult'];
export type BulkActionResult = Schemas['BulkActionResult'];
export type RenderedEmail = Schemas['RenderedEmail'];
export type ValidationResult = Schemas['ValidationResult'];
export type Quota = Schemas['Quota'];
export type ActivityKind = Schemas['ActivityKind'];
export type ActivityObjectType = Schemas['ActivityObjectType'];
export type ActivityEntry = Schemas['ActivityEntry'];
export type ActivityPage = Schemas['ActivityPage'];
export type Person = Schemas['Person'];
export type PersonContact = Schemas['PersonContact'];
export type PersonMail = Schemas['PersonMail'];
export type PersonHits = Schemas['PersonHits'];
export type PersonSuppression = NonNullable<Schemas['PersonSuppression']>;
export type ConsentEvent = Schemas['ConsentEvent'];
export type ConsentRecordEntry = Schemas['ConsentRecordEntry'];
export type LawfulBasis = Schemas['LawfulBasis'];
export type PersonExport = Schemas['PersonExport'];
export type PersonExportMail = Schemas['PersonExportMail'];
export type PersonHit = Schemas['PersonHit'];
export type PersonSuppressionRemoval = Schemas['PersonSuppressionRemoval'];
export type PersonActivity = Schemas['PersonActivity'];
export type PersonErasure = Schemas['PersonErasure'];
export type ContactDetail = Schemas['ContactDetail'];
export type ContactChange = Schemas['ContactChange'];
export type NewContact = Schemas['NewContact'];
export type FieldValues = Schemas['FieldValues'];
export type PageMeta = Schemas['PageMeta'];
export type ErrorBody = Schemas['Error'];
export type Message = Schemas['Message'];
export type CreatedId = Schemas['CreatedId'];

export type ApiClient = Client<paths>;

/** A response outside 2xx. `message` is the server's `{ message }` when it sent one. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** The server's own message, absent when the body carried none. */
  readonly serverMessage: string | undefined;
  /** The server's field errors (400), when it listed them. */
  readonly errors: ErrorBody['errors'];
  /** The whole body as the server sent it: a refusal that carries more than a message (a field removal's templates). */
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    const serverMessage = messageOf(body);
    super(serverMessage ?? `Request failed with status ${status}`);
    this.status = status;
    this.serverMessage = serverMessage;
    this.errors = errorsOf(body);
    this.body = body;
  }
}

export interface ApiClientOptions {
  baseUrl: string;
  /** The bearer token for the next request; nothing is sent when it yields no token. */
  getAccessToken: () => string | null | undefined | Promise<string | null | undefined>;
  /** For tests; defaults to the global fetch. */
  fetch?: typeof globalThis.fetch;
}

/**
 * An openapi-fetch client for the Mailroom API. Every request carries the bearer token, and a response
 * outside 2xx is thrown as an ApiError, so TanStack Query's `error.message` is what the server said.
 */
export function createApiClient({ baseUrl, getAccessToken, fetch }: ApiClientOptions): ApiClient {
  const client = createClient<paths>({ baseUrl, querySerializer: serializeQuery, ...(fetch ? { fetch } : {}) });
  client.use(authorization(getAccessToken), throwOnError);
  return client;
}

const serializeQueryAsOpenapiFetchDoes = createQuerySerializer();

/**
 * The query string with every reserved character of a value percent-encoded (RFC 3986). The contract's
 * query parameters leave `allowReserved` at false, so a value must not carry :/?#[]@!$&'()*+,;= as they
 * are, and the API's validator answers 400 to one that does. openapi-fetch encodes with
 * encodeURIComponent, which leaves ! ' ( ) * as they are: a search for "Autumn news (follow-up)", the
 * name every follow-up gets, or for "Mia's news" was refused. The rest of its encoding is kept.
 */
export function serializeQuery(query: Record<string, unknown>): string {
  return serializeQueryAsOpenapiFetchDoes(query).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function authorization(getAccessToken: ApiClientOptions['getAccessToken']): Middleware {
  return {
    async onRequest({ request }) {
      const token = await getAccessToken();
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
}

const throwOnError: Middleware = {
  async onResponse({ response }) {
    if (response.ok) return undefined;
    throw new ApiError(response.status, await readBody(response));
  },
};

async function readBody(response: Response): Promise<unknown> {
  const text = await response
    .clone()
    .text()
    .catch(() => '');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function messageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('message' in body)) return undefined;
  const { message } = body;
  return typeof message === 'string' && message.trim() !== '' ? message : undefined;
}

function errorsOf(body: unknown): ErrorBody['errors'] {
  if (typeof body !== 'object' || body === null || !('errors' in body)) return undefined;
  return Array.isArray(body.errors) ? (body.errors as ErrorBody['errors']) : undefined;
}

/**
 * The body of a successful call. The client throws non-2xx answers as ApiError, so a 2xx without the
 * body the contract promises is a breach, reported as an error rather than passed on as undefined.
 */
export function expectBody<T>(data: T | undefined): T {
  if (data === undefined) throw new Error('The server sent an empty response');
  return data;
}

/**
 * The text to show for a failed request (docs/product.md, Messages and behaviour worth knowing): the server's message when present; for an
 * answer without one, the screen's own fallback (e.g. 'Failed to update audience name'); for a request
 * that never got an answer, the error's own message.
 */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.serverMessage ?? fallback;
  if (err instanceof Error) return err.message || fallback;
  return messageOf(err) ?? fallback;
}
export type Segment = Schemas['Segment'];
export type SegmentInput = Schemas['SegmentInput'];
export type SegmentList = Schemas['SegmentList'];
export type SegmentCount = Schemas['SegmentCount'];
export type CampaignSegment = NonNullable<Schemas['CampaignSegment']>;
export type SignupForm = Schemas['SignupForm'];
export type SignupFormInput = Schemas['SignupFormInput'];
export type SignupFormField = Schemas['SignupFormField'];
export type SignupFormList = Schemas['SignupFormList'];
