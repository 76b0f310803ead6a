import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The contract's structure, checked against docs/product.md and docs/architecture.md, The contract.

type Json = Record<string, unknown>;
interface Operation {
  method: string;
  path: string;
  op: Json;
}

const specFile = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));
const doc = parse(readFileSync(specFile, 'utf8')) as Json;
const paths = doc.paths as Record<string, Json>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

const operations: Operation[] = Object.entries(paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((m) => ({ method: m.toUpperCase(), path, op: item[m] as Json })),
);

/** Follows a local $ref ('#/components/...') until it reaches a value that is not a reference. */
function deref(value: unknown): Json {
  let current = value as Json;
  while (current && typeof current.$ref === 'string') {
    current = (current.$ref as string)
      .slice(2)
      .split('/')
      .reduce<Json>((node, key) => node[key] as Json, doc);
  }
  return current;
}

/** The properties of a schema, with allOf parts merged. */
function propertiesOf(schema: unknown): Record<string, Json> {
  const s = deref(schema);
  const own = (s.properties ?? {}) as Record<string, Json>;
  const parts = ((s.allOf ?? []) as unknown[]).map(propertiesOf);
  return Object.assign({}, ...parts, own);
}

function findOperation(method: string, path: string): Json | undefined {
  return paths[path]?.[method.toLowerCase()] as Json | undefined;
}

function parameterNames(method: string, path: string, where: 'query' | 'path'): string[] {
  const op = findOperation(method, path);
  const params = [...((paths[path]?.parameters ?? []) as unknown[]), ...((op?.parameters ?? []) as unknown[])].map(deref);
  return params.filter((p) => p.in === where).map((p) => p.name as string);
}

function requestSchema(operationId: string, mediaType = 'application/json'): Json {
  const { op } = operations.find((o) => o.op.operationId === operationId)!;
  const body = deref(op.requestBody);
  return deref((body.content as Record<string, Json>)[mediaType]!.schema);
}

function responseSchema(operationId: string, status: string, mediaType = 'application/json'): Json {
  const { op } = operations.find((o) => o.op.operationId === operationId)!;
  const response = deref((op.responses as Json)[status]);
  return deref((response.content as Record<string, Json>)[mediaType]!.schema);
}

// docs/product.md, The calls, every call with its query names, plus the decisions of docs/architecture.md, The contract and the public routes.
// [method, path, operationId, query parameter names]
const EXPECTED: [string, string, string, string[]][] = [
  ['GET', '/api/audiences', 'listAudiences', ['page', 'limit', 'name']],
  ['GET', '/api/audiences/{id}', 'getAudience', []],
  ['POST', '/api/audiences', 'createAudience', []], // the spec writes POST /api/audiences/ (trailing slash)
  ['PUT', '/api/audiences/{id}', 'renameAudience', []],
  ['DELETE', '/api/audiences/{id}', 'deleteAudience', []],
  ['POST', '/api/audiences/{id}/import/file', 'importContacts', ['type']],
  ['POST', '/api/audiences/{id}/download', 'downloadAudience', []],
  ['GET', '/api/audiences/{id}/contacts', 'listContacts', ['page', 'limit', 'email', 'hasError']],
  // An addition: how many valid contacts a send skips as suppressed (the send confirmation says it).
  ['POST', '/api/templates', 'createTemplate', []],
  ['PUT', '/api/templates/{id}', 'updateTemplate', []],
  ['GET', '/api/templates', 'listTemplates', ['page', 'limit', 'name']],
  ['GET', '/api/templates/{id}', 'getTemplate', []],
  ['POST', '/api/templates/{id}/replicate', 'replicateTemplate', []],
  ['DELETE', '/api/templates/{id}', 'deleteTemplate', []],
  ['POST', '/api/campaigns', 'createCampaign', []],
  ['PUT', '/api/campaigns/{id}', 'updateCampaign', []],
  ['GET', '/api/campaigns', 'listCampaigns', ['page', 'limit', 'name']],
  ['GET', '/api/campaigns/{id}', 'getCampaign', ['job_success_count']],
  ['POST', '/api/campaigns/{id}/send', 'sendCampaign', []],
  ['POST', '/api/campaigns/{id}/continue', 'continueCampaign', []],
  ['POST', '/api/campaigns/{id}/replicate', 'replicateCampaign', []],
  ['DELETE', '/api/campaigns/{id}', 'deleteCampaign', []],
  ['GET', '/api/campaigns/authorized-sent-emails', 'listAuthorizedSenders', []],
  ['POST', '/api/campaigns/send-test-email', 'sendTestEmail', []],
  ['POST', '/api/campaigns/test-render-email', 'testRenderEmail', []],
  ['POST', '/api/campaigns/validate-campaign', 'validateCampaign', []],
  ['GET', '/api/reports/{id}/clicks', 'listCampaignLinks', []],
  ['GET', '/api/reports/{id}/overview-stat', 'getCampaignOverviewStat', []],
  [
    'GET',
    '/api/reports/{id}/email-performance',
    'listEmailPerformance',
    ['page', 'limit', 'email', 'sendStatus', 'bounceStatus', 'clicked', 'opened'],
  ],
  [
    'GET',
    '/api/reports/{id}/export-email-performance',
    'exportEmailPerformance',
    ['email', 'sendStatus', 'bounceStatus', 'clicked', 'opened'],
  ],
  ['POST', '/api/reports/{id}/retry-all-failed-jobs', 'retryAllFailedJobs', []],
  ['POST', '/api/reports/{id}/retry-job/{jobId}', 'retryJob', []],
  ['POST', '/api/reports/{id}/send-to-not-sent', 'sendToNotSent', []],
  ['POST', '/api/reports/{id}/send-to-contact/{contactId}', 'sendToContact', []],
  ['GET', '/api/ses-quota', 'getSesQuota', []],
  ['GET', '/healthz', 'healthz', []],
  ['GET', '/readyz', 'readyz', []],
  ['GET', '/t/o/{token}', 'trackOpen', []],
  ['GET', '/t/c/{token}', 'trackClick', []],
  ['GET', '/unsubscribe/{token}', 'unsubscribePage', []],
  ['POST', '/unsubscribe/{token}', 'unsubscribeOneClick', []],
  ['POST', '/webhooks/ses', 'sesWebhook', []],
];

/** Operations beyond docs/product.md, each recorded in docs/decisions as an addition. */
const ADDITIONS: [string, string, string, string[]][] = [
  ['GET', '/api/audiences/{id}/suppressed-contacts', 'countSuppressedContacts', []],
  ['POST', '/api/reports/{id}/resend-unconfirmed', 'resendUnconfirmedJobs', []],
  ['GET', '/api/reports/{id}/overview', 'getCampaignReportOverview', []],
  ['GET', '/api/reports/{id}/timeline', 'getCampaignReportTimeline', []],
  ['GET', '/api/reports/{id}/domains', 'getCampaignReportDomains', []],
  ['GET', '/api/suppressions', 'listSuppressions', ['limit', 'email', 'reason', 'after', 'before', 'end']],
  ['POST', '/api/suppressions', 'addSuppressions', []],
  ['GET', '/api/suppressions/export', 'exportSuppressions', ['email', 'reason']],
  ['DELETE', '/api/suppressions/{id}', 'removeSuppression', ['confirmComplaint', 'confirmUnsubscribe']],
  ['POST', '/api/campaigns/{id}/schedule', 'scheduleCampaign', []],
  ['POST', '/api/campaigns/{id}/unschedule', 'unscheduleCampaign', []],
  // Stop a sending campaign, one paused at the daily quota mostly (issue 28, docs/decisions/sending.md).
  ['POST', '/api/campaigns/{id}/stop', 'stopCampaign', []],
  // A/B tests judged by people (issue 28, docs/decisions/ab-tests.md).
  ['GET', '/api/campaigns/{id}/ab-test', 'getAbTest', []],
  ['PUT', '/api/campaigns/{id}/ab-test', 'saveAbTest', []],
  ['DELETE', '/api/campaigns/{id}/ab-test', 'deleteAbTest', []],
  ['POST', '/api/campaigns/{id}/ab-test/winner', 'pickAbTestWinner', []],
  ['GET', '/api/campaigns/{id}/ab-test/variants/{variant}/clicks', 'getAbTestVariantClicks', []],
  ['POST', '/api/campaigns/{id}/follow-up', 'followUpCampaign', []],
  ['GET', '/api/campaigns/{id}/recipients', 'listFollowUpRecipients', ['page', 'limit']],
  ['GET', '/api/campaigns/{id}/reached-recipients', 'countReachedFollowUpRecipients', []],
  ['GET', '/api/activity', 'listActivity', ['member', 'kind', 'objectType', 'objectId', 'before', 'after', 'oldest', 'limit']],
  // Sign-up forms and their public pages (issue 25, docs/decisions/sign-up.md).
  ['GET', '/api/audiences/{id}/forms', 'listSignupForms', []],
  ['POST', '/api/audiences/{id}/forms', 'createSignupForm', []],
  ['GET', '/api/forms/{id}', 'getSignupForm', []],
  ['PUT', '/api/forms/{id}', 'updateSignupForm', []],
  ['DELETE', '/api/forms/{id}', 'deleteSignupForm', []],
  ['GET', '/subscribe/static/{file}', 'signupAsset', []],
  ['GET', '/subscribe/confirm/{token}', 'signupConfirmPage', []],
  ['POST', '/subscribe/confirm/{token}', 'signupConfirm', []],
  ['GET', '/subscribe/{formSlug}', 'signupPage', []],
  ['POST', '/subscribe/{formSlug}', 'signupSubmit', []],
  ['GET', '/subscribe/{formSlug}/challenge', 'signupChallenge', []],
  // The consent record (issue 25): every ledger event of an audience and its addresses, as CSV.
  ['GET', '/api/audiences/{id}/consent-export', 'exportAudienceConsent', []],
  // The preference centre (issue 25), reached with the unsubscribe link's token; the audience's public name.
  ['GET', '/preferences/{token}', 'preferencesPage', []],
  ['POST', '/preferences/{token}', 'savePreferences', []],
  ['PATCH', '/api/audiences/{id}', 'updateAudience', []],
  // One person across audiences (issue 24): the address is a query value or in the body, never in the path.
  ['GET', '/api/people', 'findPerson', ['email']],
  ['GET', '/api/people/export', 'exportPerson', ['email']],
  ['POST', '/api/people/erase', 'erasePerson', []],
  // One contact (issue 24): its drawer, a member's edit, addition by hand and deletion.
  ['POST', '/api/audiences/{id}/contacts', 'addContact', []],
  ['GET', '/api/audiences/{id}/contacts/{contactId}', 'getContact', []],
  ['PATCH', '/api/audiences/{id}/contacts/{contactId}', 'updateContact', []],
  ['DELETE', '/api/audiences/{id}/contacts/{contactId}', 'deleteContact', []],
  // Typed fields (issue 24): the fields screen's calls, and what the import wizard maps a file to.
  ['GET', '/api/audiences/{id}/fields', 'listAudienceFields', []],
  ['POST', '/api/audiences/{id}/fields', 'addAudienceField', []],
  ['PATCH', '/api/audiences/{id}/fields/{key}', 'changeAudienceField', []],
  ['DELETE', '/api/audiences/{id}/fields/{key}', 'removeAudienceField', ['confirm']],
  ['GET', '/api/audiences/{id}/import-mapping', 'getImportMapping', []],
  // Segments (issue 26): an audience's saved rules, and the live count of a rule as the member edits it.
  ['GET', '/api/audiences/{id}/segments', 'listSegments', []],
  ['POST', '/api/audiences/{id}/segments', 'createSegment', []],
  ['POST', '/api/audiences/{id}/segment-count', 'countSegmentRule', ['sample']],
  ['GET', '/api/segments/{id}', 'getSegment', []],
  ['PUT', '/api/segments/{id}', 'updateSegment', []],
  ['DELETE', '/api/segments/{id}', 'deleteSegment', []],
  // Send approval (issue 27, docs/decisions/send-approval.md): a request, its withdrawal, and another member's answer.
  ['POST', '/api/campaigns/{id}/approval-request', 'requestCampaignApproval', []],
  ['DELETE', '/api/campaigns/{id}/approval-request', 'withdrawCampaignApproval', []],
  ['POST', '/api/campaigns/{id}/approve', 'approveCampaign', []],
  ['POST', '/api/campaigns/{id}/decline', 'declineCampaign', []],
  // Outgoing webhooks (issue 27): endpoints, their signing secrets, the delivery log and its re-send.
  ['GET', '/api/webhooks', 'listWebhookEndpoints', []],
  ['POST', '/api/webhooks', 'createWebhookEndpoint', []],
  ['GET', '/api/webhooks/{id}', 'getWebhookEndpoint', []],
  ['PUT', '/api/webhooks/{id}', 'updateWebhookEndpoint', []],
  ['DELETE', '/api/webhooks/{id}', 'deleteWebhookEndpoint', []],
  ['GET', '/api/webhooks/{id}/secret', 'getWebhookSecret', []],
  ['POST', '/api/webhooks/{id}/secret', 'rotateWebhookSecret', []],
  ['GET', '/api/webhooks/{id}/deliveries', 'listWebhookDeliveries', ['status', 'before', 'limit']],
  ['GET', '/api/webhook-deliveries/{id}', 'getWebhookDelivery', []],
  ['POST', '/api/webhook-deliveries/{id}/resend', 'resendWebhookDelivery', []],
  // Roles and API keys (issue 27, docs/decisions/access.md): who calls, and an admin's keys.
  ['GET', '/api/me', 'getCaller', []],
  ['GET', '/api/api-keys', 'listApiKeys', []],
  ['POST', '/api/api-keys', 'createApiKey', []],
  ['DELETE', '/api/api-keys/{id}', 'revokeApiKey', []],
];

/** Query parameters added to docs/product.md's own operations (docs/decisions records each). */
const ADDED_QUERY: Record<string, string[]> = {
  // People, not machines (issue 16): the Opened and Clicked filters can ask for human hits only.
  listEmailPerformance: ['humanOpened', 'humanClicked'],
  exportEmailPerformance: ['humanOpened', 'humanClicked'],
  // Send approval (issue 27): the waiting requests, `status=AWAITING_APPROVAL`, or any one status.
  listCampaigns: ['status'],
};

describe('paths of docs/product.md, The calls', () => {
  it.each([...EXPECTED, ...ADDITIONS])('%s %s is %s with query %j', (method, path, operationId, query) => {
    const op = findOperation(method, path);
    expect(op, `${method} ${path}`).toBeDefined();
    expect(op!.operationId).toBe(operationId);
    expect(parameterNames(method, path, 'query').sort()).toEqual([...query, ...(ADDED_QUERY[operationId] ?? [])].sort());
    const placeholders = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    expect(parameterNames(method, path, 'path').sort()).toEqual(placeholders.sort());
  });

  it('has no operation beyond those', () => {
    const listed = new Set([...EXPECTED, ...ADDITIONS].map(([method, path]) => `${method} ${path}`));
    expect(operations.map((o) => `${o.method} ${o.path}`).filter((key) => !listed.has(key))).toEqual([]);
  });
});

describe('operations', () => {
  it('every operation has a unique camelCase operationId', () => {
    const ids = operations.map((o) => o.op.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every /api operation needs the bearer token and documents 400, 401 and 403 with the Error schema', () => {
    const scheme = deref((doc.components as Json).securitySchemes as Json).bearerAuth as Json;
    expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    const api = operations.filter((o) => o.path.startsWith('/api/'));
    expect(api.length).toBe([...EXPECTED, ...ADDITIONS].filter(([, path]) => path.startsWith('/api/')).length);
    for (const { method, path, op } of api) {
      expect(op.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
      for (const status of ['400', '401', '403']) {
        const response = deref((op.responses as Json)[status]);
        expect(response, `${method} ${path} ${status}`).toBeDefined();
        const schema = (response.content as Record<string, Json>)['application/json']!.schema as Json;
        expect(schema.$ref).toBe('#/components/schemas/Error');
      }
    }
  });

  it('every /api operation declares x-mailroom-role, the lowest role allowed to call it (issue 27)', () => {
    const roles = ['viewer', 'editor', 'sender', 'admin'];
    const undeclared = operations
      .filter((o) => o.path.startsWith('/api/') && !roles.includes(o.op['x-mailroom-role'] as string))
      .map(({ method, path }) => `${method} ${path}`);
    expect(undeclared).toEqual([]);
    // The table's anchors: reading is for everyone, sending for senders, keys for admins.
    const roleOf = (id: string) => operations.find((o) => o.op.operationId === id)!.op['x-mailroom-role'];
    expect([roleOf('listAudiences'), roleOf('downloadAudience'), roleOf('sendCampaign'), roleOf('createApiKey')]).toEqual(roles);
    // Public routes are nobody's: a role there would mean nothing.
    expect(operations.filter((o) => !o.path.startsWith('/api/') && o.op['x-mailroom-role'] !== undefined)).toEqual([]);
  });

  it('public routes take no token', () => {
    for (const { method, path, op } of operations.filter((o) => !o.path.startsWith('/api/'))) {
      expect(op.security, `${method} ${path}`).toEqual([]);
    }
  });

  it('every /api operation with an {id} documents 404, and state changes document 409', () => {
    for (const { method, path, op } of operations.filter((o) => o.path.startsWith('/api/') && o.path.includes('{id}'))) {
      expect((op.responses as Json)['404'], `${method} ${path}`).toBeDefined();
    }
    for (const id of ['sendCampaign', 'continueCampaign', 'updateCampaign', 'deleteCampaign', 'importContacts', 'retryJob']) {
      const { op } = operations.find((o) => o.op.operationId === id)!;
      expect((op.responses as Json)['409'], id).toBeDefined();
    }
    const { op: importOp } = operations.find((o) => o.op.operationId === 'importContacts')!;
    expect((importOp.responses as Json)['413']).toBeDefined();
  });

  // A sign-up's fields are the form's own, known only at run time: the service refuses the unknown ones (submission.ts).
  // The preference centre's are the person's audiences' (`audience-{id}`, `field-{id}-{key}`): the service reads only those
  // its page showed (preference-service.ts); the contract bounds their number and length.
  const OPEN_BODIES = ['sesWebhook', 'signupSubmit', 'savePreferences'];

  it('every JSON or form request body forbids unknown properties (the SNS envelope, a sign-up and preferences excepted)', () => {
    for (const { op } of operations.filter((o) => o.op.requestBody && !OPEN_BODIES.includes(o.op.operationId as string))) {
      for (const media of Object.values(deref(op.requestBody).content as Record<string, Json>)) {
        expect(deref(media.schema).additionalProperties, String(op.operationId)).toBe(false);
      }
    }
  });
});

describe('strings that go into mail headers', () => {
  const NO_CR_LF = '^[^\\r\\n\\u0000]*$';
  const HEADER_FIELDS = ['subject', 'fromName', 'previewText', 'name'];

  it.each([
    ['createAudience', ['name']],
    ['renameAudience', ['name']],
    ['createTemplate', ['name']],
    ['updateTemplate', ['name']],
    ['createCampaign', ['name']],
    ['updateCampaign', ['name', 'subject', 'fromName', 'previewText']],
    ['sendTestEmail', ['subject', 'fromName', 'previewText']],
    ['testRenderEmail', ['subject', 'previewText']],
    ['validateCampaign', ['subject', 'previewText']],
  ])('%s: %j forbid CR and LF and are bounded', (operationId, fields) => {
    const properties = propertiesOf(requestSchema(operationId));
    expect(
      Object.keys(properties)
        .filter((key) => HEADER_FIELDS.includes(key))
        .sort(),
    ).toEqual([...fields].sort());
    for (const field of fields) {
      const schema = deref(properties[field]);
      expect(schema.pattern, `${operationId}.${field}`).toBe(NO_CR_LF);
      expect(schema.maxLength, `${operationId}.${field}`).toBeGreaterThan(0);
    }
  });

  it('the pattern rejects CR, LF and NUL and nothing else', () => {
    const pattern = new RegExp(NO_CR_LF, 'u');
    expect(pattern.test('Spring newsletter — ünïcode')).toBe(true);
    expect(pattern.test('')).toBe(true);
    expect(pattern.test('hi\r\nBcc: someone@example.com')).toBe(false);
    expect(pattern.test('hi\nthere')).toBe(false);
    expect(pattern.test('hi\rthere')).toBe(false);
    expect(pattern.test('hi\u0000there')).toBe(false);
  });

  it('the subject is bounded by the header line limit and sender addresses are e-mails', () => {
    expect(deref(propertiesOf(requestSchema('updateCampaign')).subject).maxLength).toBe(998);
    expect(deref(propertiesOf(requestSchema('updateCampaign')).fromEmail).format).toBe('email');
    expect(deref(propertiesOf(requestSchema('sendTestEmail')).fromEmail).format).toBe('email');
    expect(deref(deref(propertiesOf(requestSchema('sendTestEmail')).emails).items).format).toBe('email');
  });
});

// What the API takes is bounded before it reaches PostgreSQL: ids and offsets stay safe integers (a bigint column
// refuses more, and JavaScript loses precision), and no string carries NUL (text columns cannot store it).
describe('hostile input is refused by the contract', () => {
  const MAX_SAFE = Number.MAX_SAFE_INTEGER;
  const apiOperations = operations.filter((o) => o.path.startsWith('/api/'));
  const paramsOf = ({ path, op }: Operation) =>
    [...((paths[path]!.parameters ?? []) as unknown[]), ...((op.parameters ?? []) as unknown[])].map(deref);
  const bodySchemas = ({ op }: Operation) =>
    Object.values((deref(op.requestBody)?.content ?? {}) as Record<string, Json>).map((media) => deref(media.schema));

  /** Every string schema inside a schema (properties, array items, allOf parts), with where it is. */
  function strings(schema: Json, where: string): [string, Json][] {
    const s = deref(schema);
    if (s.type === 'string') return [[where, s]];
    const parts = ((s.allOf ?? []) as Json[]).flatMap((part) => strings(part, where));
    const items = s.items ? strings(s.items as Json, `${where}[]`) : [];
    const properties = Object.entries((s.properties ?? {}) as Record<string, Json>).flatMap(([name, p]) => strings(p, `${where}.${name}`));
    return [...parts, ...items, ...properties];
  }

  it('every string a /api call takes is bounded and refuses NUL', () => {
    const found = apiOperations.flatMap((o) => [
      ...paramsOf(o).flatMap((p) => strings(p.schema as Json, `${o.op.operationId} ${p.in} ${p.name}`)),
      ...bodySchemas(o).flatMap((schema) => strings(schema, `${o.op.operationId} body`)),
    ]);
    expect(found.length).toBeGreaterThan(20);
    for (const [where, s] of found) {
      if (s.format === 'binary' || s.enum) continue;
      expect(s.maxLength, where).toBeGreaterThan(0);
      if (s.format === 'email') continue; // the e-mail format admits no control character
      expect(s.pattern, where).toBeDefined();
      const pattern = new RegExp(s.pattern as string, 'u');
      expect(pattern.test('https://example.org/\u0000'), `${where} refuses NUL`).toBe(false);
    }
  });

  it('every integer a /api call takes has a maximum, and a page times its page size stays a safe integer', () => {
    for (const o of apiOperations) {
      const params = paramsOf(o);
      for (const p of params.filter((p) => deref(p.schema as Json).type === 'integer')) {
        expect(deref(p.schema as Json).maximum, `${o.op.operationId} ${p.name}`).toBeLessThanOrEqual(MAX_SAFE);
      }
      const page = params.find((p) => p.name === 'page');
      const limit = params.find((p) => p.name === 'limit');
      if (page && limit) {
        const product = (deref(page.schema as Json).maximum as number) * (deref(limit.schema as Json).maximum as number);
        expect(product, String(o.op.operationId)).toBeLessThanOrEqual(MAX_SAFE);
      }
    }
    for (const name of ['Id', 'NullableId']) expect(deref(schemaOf(name)).maximum).toBe(MAX_SAFE);
  });
});

describe('entities, lists and enums', () => {
  it('lists answer items and meta; the campaign list wraps them in data', () => {
    for (const id of ['listAudiences', 'listContacts', 'listTemplates', 'listEmailPerformance']) {
      const schema = responseSchema(id, '200');
      expect(schema.required, id).toEqual(['items', 'meta']);
      expect((schema.properties as Json).meta).toEqual({ $ref: '#/components/schemas/PageMeta' });
    }
    const campaigns = responseSchema('listCampaigns', '200');
    expect(campaigns.required).toEqual(['data']);
    expect(deref((campaigns.properties as Json).data).required).toEqual(['items', 'meta']);
    expect(deref(schemaOf('PageMeta')).required).toEqual(['currentPage', 'itemCount', 'itemsPerPage', 'totalItems', 'totalPages']);
  });

  it('entities carry the fields of docs/product.md, What the screens hold', () => {
    const fields: [string, string[]][] = [
      [
        'Audience',
        [
          'id',
          'name',
          'headers',
          'source',
          'numberOfContacts',
          'numberOfContactsWithErrors',
          'isImporting',
          'importErrorMessage',
          'createdAt',
        ],
      ],
      ['Contact', ['id', 'email', 'errorMessage', 'data']],
      ['ValidationResult', ['contactId', 'email', 'missingFields']],
      ['Template', ['id', 'name', 'design', 'html', 'plainText', 'preview', 'updatedAt', 'updatedByEmail']],
      [
        'Campaign',
        [
          'id',
          'name',
          'status',
          'audienceId',
          'audienceName',
          'numberOfContacts',
          'contactCount',
          'fromName',
          'fromEmail',
          'subject',
          'previewText',
          'template',
          'templateId',
          'html',
          'deliveryDate',
          'updatedAt',
          'updatedByEmail',
          'jobsSent',
          'jobsFailed',
          'uniqueOpens',
          'uniqueClicks',
          'errorMessage',
        ],
      ],
      ['CampaignOverviewStats', ['campaign', 'jobsSent', 'jobsFailed', 'totalContactsCount']],
      ['CampaignLink', ['id', 'href', 'clicks', 'uniqueClicks']],
      [
        'EmailPerformanceRow',
        [
          'id',
          'contactId',
          'email',
          'status',
          'clicked',
          'opened',
          'bounceType',
          'bounceMessage',
          'bounceTime',
          'complaintType',
          'complaintTime',
          'errorMessage',
        ],
      ],
      ['Quota', ['emailsSent', 'remainingSends', 'quotaUsedPercentage', 'maxSendRate', 'max24HourSend']],
      ['PageMeta', ['currentPage', 'itemCount', 'itemsPerPage', 'totalItems', 'totalPages']],
    ];
    for (const [name, expected] of fields) {
      expect(Object.keys(propertiesOf(schemaOf(name))), name).toEqual(expect.arrayContaining(expected));
    }
    expect(Object.keys(propertiesOf(propertiesOf(schemaOf('Campaign')).template)).sort()).toEqual(['html', 'id', 'name', 'preview']);
    expect(deref(propertiesOf(schemaOf('Campaign')).template).nullable).toBe(true);
  });

  it('the bulk actions answer what they queued and skipped; a suppressed NOT_SENT row and contact say why (additions)', () => {
    for (const operationId of ['retryAllFailedJobs', 'sendToNotSent']) {
      const schema = responseSchema(operationId, '202');
      expect(schema.required, operationId).toEqual(['message', 'queued', 'skipped']);
    }
    const reason = deref(propertiesOf(schemaOf('EmailPerformanceRow')).suppressionReason);
    expect(reason.enum).toEqual(['UNSUBSCRIBE', 'HARD_BOUNCE', 'COMPLAINT', 'SOFT_BOUNCE', 'MEMBER', 'ERASED', null]);
    expect(deref(schemaOf('SuppressionReason')).enum).toEqual((reason.enum as unknown[]).filter((r) => r !== null));
    expect(schemaOf('EmailPerformanceRow').required).toContain('suppressionReason');
    // A contact of an audience says why its address is suppressed, as the report's row does.
    expect(deref(propertiesOf(schemaOf('Contact')).suppressionReason).enum).toEqual(reason.enum);
    expect(schemaOf('Contact').required).toContain('suppressionReason');
    expect(responseSchema('countSuppressedContacts', '200').required).toEqual([
      'suppressedContacts',
      'unsubscribed',
      'hardBounced',
      'complained',
    ]);
  });

  it("a row says why its open or click is a machine's (an addition)", () => {
    const reasons = ['apple-privacy-proxy', 'bot-user-agent', 'too-soon', 'scanner-burst', 'hidden-link'];
    expect(deref(schemaOf('MachineReason')).enum).toEqual(reasons);
    const row = propertiesOf(schemaOf('EmailPerformanceRow'));
    for (const field of ['openEvidence', 'clickEvidence']) {
      expect(schemaOf('EmailPerformanceRow').required, field).toContain(field);
      expect(deref(row[field]), field).toMatchObject({ type: 'array', maxItems: reasons.length });
      expect(deref(deref(row[field]).items).enum, field).toEqual(reasons);
    }
  });

  it("a link carries people's clicks and people beside the spec's counts (additions)", () => {
    const link = schemaOf('CampaignLink');
    expect(link.required).toEqual(['id', 'href', 'clicks', 'uniqueClicks', 'humanClicks', 'humanUniqueClicks']);
    for (const field of ['humanClicks', 'humanUniqueClicks']) {
      expect(deref(propertiesOf(link)[field]), field).toMatchObject({ type: 'integer', minimum: 0 });
    }
  });

  it("an audience counts its sign-ups waiting for confirmation, optional beside the spec's fields (an addition)", () => {
    const audience = schemaOf('Audience');
    expect(deref(propertiesOf(audience).pendingCount)).toMatchObject({ type: 'integer', minimum: 0 });
    expect(audience.required).not.toContain('pendingCount');
  });

  it("the quota says whether delivery events are configured, optional beside the spec's fields (an addition)", () => {
    const quota = schemaOf('Quota');
    expect(deref(propertiesOf(quota).deliveryEventsConfigured)).toMatchObject({ type: 'boolean' });
    expect(quota.required).not.toContain('deliveryEventsConfigured');
  });

  it('the quota says whether sending and imports are paused (the broker away), optional (an addition)', () => {
    const quota = schemaOf('Quota');
    expect(deref(propertiesOf(quota).sendingAndImportsPaused)).toMatchObject({ type: 'boolean' });
    expect(quota.required).not.toContain('sendingAndImportsPaused');
  });

  it("a campaign says until when it is paused at the daily quota, optional beside the spec's fields (an addition, issue 28)", () => {
    const summary = schemaOf('CampaignSummary');
    expect(deref(propertiesOf(summary).quotaPausedUntil)).toMatchObject({ type: 'string', format: 'date-time', nullable: true });
    expect(summary.required).not.toContain('quotaPausedUntil');
  });

  it('ids are int64 integers and dates are date-times', () => {
    expect(deref(schemaOf('Id'))).toMatchObject({ type: 'integer', format: 'int64' });
    expect(deref(propertiesOf(schemaOf('Audience')).createdAt)).toMatchObject({ type: 'string', format: 'date-time' });
    expect(deref(propertiesOf(schemaOf('Campaign')).deliveryDate)).toMatchObject({ type: 'string', format: 'date-time', nullable: true });
  });

  it('enums are the spec values', () => {
    // SCHEDULED is an addition (scheduled sending, docs/decisions); the spec's four keep their order; AWAITING_APPROVAL
    // (send approval, issue 27) comes last.
    expect(deref(schemaOf('CampaignStatus')).enum).toEqual(['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'ERROR', 'AWAITING_APPROVAL']);
    expect(deref(schemaOf('AudienceSource'))).toMatchObject({ nullable: true, enum: ['CSV', 'TEXT', 'BIG_QUERY', 'FILTERS', null] });
    expect(deref(schemaOf('BounceType')).enum).toEqual(['HARD', 'SOFT']);
    expect(deref(schemaOf('SendStatus')).enum).toEqual(expect.arrayContaining(['FAILED', 'SENT_WAIT_ACK', 'SENT_SUCCESS', 'NOT_SENT']));
  });

  it('query values are typed: paging bounds, booleans, filter enums', () => {
    const param = (method: string, path: string, name: string) =>
      [...((paths[path]?.parameters ?? []) as unknown[]), ...((findOperation(method, path)!.parameters ?? []) as unknown[])]
        .map(deref)
        .find((p) => p.name === name)!;
    // A template row carries its preview image, so a page of templates holds at most 100.
    for (const [method, path, maximum] of [
      ['GET', '/api/audiences', 1000],
      ['GET', '/api/templates', 100],
      ['GET', '/api/campaigns', 1000],
      ['GET', '/api/audiences/{id}/contacts', 1000],
    ] as const) {
      expect(deref(param(method, path, 'page').schema)).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
      expect(deref(param(method, path, 'limit').schema)).toMatchObject({ type: 'integer', minimum: 1, maximum });
    }
    for (const [method, path] of [
      ['GET', '/api/audiences'],
      ['GET', '/api/templates'],
      ['GET', '/api/campaigns'],
    ] as const) {
      expect(deref(param(method, path, 'name').schema)).toMatchObject({ type: 'string', maxLength: 200 });
    }
    const performance = '/api/reports/{id}/email-performance';
    expect(deref(param('GET', performance, 'limit').schema)).toMatchObject({ type: 'integer', maximum: 999999 });
    expect(deref(param('GET', performance, 'sendStatus').schema).enum).toContain('NOT_SENT');
    expect(deref(param('GET', performance, 'bounceStatus').schema).enum).toEqual(['HARD', 'SOFT']);
    expect(deref(param('GET', performance, 'clicked').schema).type).toBe('boolean');
    expect(deref(param('GET', performance, 'opened').schema).type).toBe('boolean');
    expect(deref(param('GET', '/api/audiences/{id}/contacts', 'hasError').schema).type).toBe('boolean');
    // Not an enum: the API answers any other value with the spec's own 'Input error' (api/src/http/routes/audiences.test.ts).
    expect(deref(param('POST', '/api/audiences/{id}/import/file', 'type').schema)).toMatchObject({ type: 'string', maxLength: 20 });
    expect(deref(param('GET', '/api/campaigns/{id}', 'job_success_count').schema).type).toBe('boolean');
  });

  it('downloads and public routes answer the right media types', () => {
    const media = (id: string, status: string) => {
      const { op } = operations.find((o) => o.op.operationId === id)!;
      return Object.keys((deref((op.responses as Json)[status]).content ?? {}) as Json);
    };
    expect(media('downloadAudience', '200')).toEqual(['text/csv']);
    expect(media('exportEmailPerformance', '200')).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
    expect(media('trackOpen', '200')).toEqual(['image/gif']);
    expect(media('unsubscribePage', '200')).toEqual(['text/html']);
    expect((findOperation('GET', '/t/c/{token}')!.responses as Json)['302']).toBeDefined();
    expect(Object.keys(deref(findOperation('POST', '/webhooks/ses')!.requestBody).content as Json).sort()).toEqual([
      'application/json',
      'text/plain',
    ]);
    const oneClick = requestSchema('unsubscribeOneClick', 'application/x-www-form-urlencoded');
    expect(deref(propertiesOf(oneClick)['List-Unsubscribe']).enum).toEqual(['One-Click']);
    expect(Object.keys(deref(findOperation('GET', '/readyz')!.responses as Json)).sort()).toEqual(['200', '503']);
    expect(media('exportPerson', '200')).toEqual(['application/json']);
  });

  it("one person's calls take the address as a query value or in the body, never in a path (issue 24)", () => {
    const people = operations.filter((o) => o.path.startsWith('/api/people'));
    expect(people.map((o) => o.op.operationId).sort()).toEqual(['erasePerson', 'exportPerson', 'findPerson']);
    for (const { path } of people) expect(path).not.toContain('{');
    for (const path of ['/api/people', '/api/people/export']) expect(parameterNames('GET', path, 'query')).toEqual(['email']);
    expect(requestSchema('erasePerson').required).toEqual(['email']);
    expect(schemaOf('Person').required).toEqual(
      expect.arrayContaining(['audiences', 'mails', 'opens', 'clicks', 'suppression', 'consent', 'erasedAt']),
    );
    expect(Object.keys(propertiesOf(schemaOf('PersonHits'))).sort()).toEqual(['machines', 'people']);
  });
});

function schemaOf(name: string): Json {
  return ((doc.components as Json).schemas as Record<string, Json>)[name]!;
}

// The API loads this file with express-openapi-validator: it must compile there, and every request below must reach
// the operation it is meant for (static segments such as authorized-sent-emails before {id}).
describe('express-openapi-validator', () => {
  const requireFromApi = createRequire(fileURLToPath(new URL('../../api/package.json', import.meta.url)));
  let baseUrl = '';
  let close: () => void = () => {};

  beforeAll(async () => {
    const express = requireFromApi('express');
    const { middleware } = requireFromApi('express-openapi-validator');
    const app = express();
    app.use(express.json());
    app.use(express.text({ type: 'text/plain' }));
    app.use(express.urlencoded({ extended: false }));
    app.use(middleware({ apiSpec: specFile, validateRequests: true, validateResponses: false, validateSecurity: false }));
    app.use((req: { openapi?: { schema?: Json } }, res: { status(n: number): { json(b: unknown): void } }) =>
      res.status(299).json({ operationId: req.openapi?.schema?.operationId }),
    );
    app.use(
      (err: { status?: number; message: string }, _req: unknown, res: { status(n: number): { json(b: unknown): void } }, _next: unknown) =>
        res.status(err.status ?? 500).json({ message: err.message }),
    );
    await new Promise<void>((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => {
        baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        close = () => server.close();
        resolve();
      });
    });
  });
  afterAll(() => close());

  const csvFile = () => {
    const form = new FormData();
    form.append('file', new Blob(['email\nmia@example.org\n'], { type: 'text/csv' }), 'contacts.csv');
    return form;
  };
  const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const REQUESTS: [string, string, string, RequestInit?][] = [
    ['listAudiences', 'GET', '/api/audiences?page=1&limit=10&name=news'],
    ['createAudience', 'POST', '/api/audiences/', json({ name: 'Members' })],
    ['getAudience', 'GET', '/api/audiences/1'],
    ['renameAudience', 'PUT', '/api/audiences/1', json({ name: 'Members 2024' })],
    ['deleteAudience', 'DELETE', '/api/audiences/1'],
    ['importContacts', 'POST', '/api/audiences/1/import/file?type=csv', { body: csvFile() }],
    ['downloadAudience', 'POST', '/api/audiences/1/download'],
    ['listContacts', 'GET', '/api/audiences/1/contacts?page=2&limit=25&email=mia&hasError=false'],
    ['countSuppressedContacts', 'GET', '/api/audiences/1/suppressed-contacts'],
    ['listSuppressions', 'GET', '/api/suppressions?reason=SOFT_BOUNCE&after=3&limit=50'],
    ['addSuppressions', 'POST', '/api/suppressions', json({ text: 'a@example.org' })],
    ['exportSuppressions', 'GET', '/api/suppressions/export?email=gmail'],
    ['removeSuppression', 'DELETE', '/api/suppressions/7?confirmComplaint=true'],
    ['listTemplates', 'GET', '/api/templates?page=1&limit=10&name=x'],
    ['createTemplate', 'POST', '/api/templates', json({ name: 'My template' })],
    ['getTemplate', 'GET', '/api/templates/2'],
    ['updateTemplate', 'PUT', '/api/templates/2', json({ name: 'T', design: { body: { rows: [] } }, html: '<p>Hi</p>', plainText: 'Hi' })],
    ['replicateTemplate', 'POST', '/api/templates/2/replicate'],
    ['deleteTemplate', 'DELETE', '/api/templates/2'],
    ['listCampaigns', 'GET', '/api/campaigns?page=1&limit=10&name=x'],
    ['createCampaign', 'POST', '/api/campaigns', json({ name: 'My Campaign', templateId: 2 })],
    ['listAuthorizedSenders', 'GET', '/api/campaigns/authorized-sent-emails'],
    [
      'sendTestEmail',
      'POST',
      '/api/campaigns/send-test-email',
      json({
        emails: ['mia@example.org'],
        fromEmail: 'news@example.org',
        fromName: 'News',
        subject: 'Hi',
        previewText: 'P',
        templateId: 2,
      }),
    ],
    [
      'testRenderEmail',
      'POST',
      '/api/campaigns/test-render-email',
      json({ templateId: 2, contactId: 3, subject: 'Hi {{fullName}}', previewText: '' }),
    ],
    [
      'validateCampaign',
      'POST',
      '/api/campaigns/validate-campaign',
      json({ templateId: 2, audienceId: 1, subject: 'Hi', previewText: '' }),
    ],
    ['getCampaign', 'GET', '/api/campaigns/4?job_success_count=true'],
    [
      'updateCampaign',
      'PUT',
      '/api/campaigns/4',
      json({
        name: 'C',
        audienceId: 1,
        audienceName: 'Members',
        fromName: 'News',
        fromEmail: 'news@example.org',
        subject: 'Hi',
        previewText: 'P',
        templateId: 2,
      }),
    ],
    ['deleteCampaign', 'DELETE', '/api/campaigns/4'],
    ['sendCampaign', 'POST', '/api/campaigns/4/send'],
    ['continueCampaign', 'POST', '/api/campaigns/4/continue'],
    ['replicateCampaign', 'POST', '/api/campaigns/4/replicate'],
    ['scheduleCampaign', 'POST', '/api/campaigns/4/schedule', json({ at: '2030-01-02T09:30:00+01:00' })],
    ['unscheduleCampaign', 'POST', '/api/campaigns/4/unschedule'],
    ['requestCampaignApproval', 'POST', '/api/campaigns/4/approval-request', json({ at: '2030-01-02T09:30:00+01:00' })],
    ['withdrawCampaignApproval', 'DELETE', '/api/campaigns/4/approval-request'],
    ['approveCampaign', 'POST', '/api/campaigns/4/approve'],
    ['declineCampaign', 'POST', '/api/campaigns/4/decline', json({ reason: 'Wrong audience' })],
    ['stopCampaign', 'POST', '/api/campaigns/4/stop'],
    ['getAbTest', 'GET', '/api/campaigns/4/ab-test'],
    [
      'saveAbTest',
      'PUT',
      '/api/campaigns/4/ab-test',
      json({
        testShare: 20,
        waitHours: 4,
        measure: 'PEOPLE_CLICKS',
        defaultVariant: 0,
        variants: [{ subject: 'A' }, { previewText: 'B', fromName: 'The team', templateId: 2 }],
      }),
    ],
    ['deleteAbTest', 'DELETE', '/api/campaigns/4/ab-test'],
    ['pickAbTestWinner', 'POST', '/api/campaigns/4/ab-test/winner', json({ variant: 1 })],
    ['getAbTestVariantClicks', 'GET', '/api/campaigns/4/ab-test/variants/2/clicks'],
    ['followUpCampaign', 'POST', '/api/campaigns/4/follow-up', json({ recipients: 'NOT_CLICKED' })],
    ['listFollowUpRecipients', 'GET', '/api/campaigns/4/recipients?page=2&limit=10'],
    ['countReachedFollowUpRecipients', 'GET', '/api/campaigns/4/reached-recipients'],
    ['listActivity', 'GET', '/api/activity?member=mia%40example.org&kind=export&objectType=campaign&objectId=4&before=9&limit=20'],
    ['listCampaignLinks', 'GET', '/api/reports/4/clicks'],
    ['getCampaignOverviewStat', 'GET', '/api/reports/4/overview-stat'],
    ['getCampaignReportOverview', 'GET', '/api/reports/4/overview'],
    ['getCampaignReportTimeline', 'GET', '/api/reports/4/timeline'],
    ['getCampaignReportDomains', 'GET', '/api/reports/4/domains'],
    [
      'listEmailPerformance',
      'GET',
      '/api/reports/4/email-performance?page=1&limit=999999&sendStatus=NOT_SENT&email=a&bounceStatus=HARD&clicked=true&opened=false',
    ],
    ['exportEmailPerformance', 'GET', '/api/reports/4/export-email-performance?sendStatus=FAILED&clicked=false'],
    ['retryAllFailedJobs', 'POST', '/api/reports/4/retry-all-failed-jobs'],
    ['retryJob', 'POST', '/api/reports/4/retry-job/5'],
    ['resendUnconfirmedJobs', 'POST', '/api/reports/4/resend-unconfirmed'],
    ['sendToNotSent', 'POST', '/api/reports/4/send-to-not-sent'],
    ['sendToContact', 'POST', '/api/reports/4/send-to-contact/6'],
    ['getSesQuota', 'GET', '/api/ses-quota'],
    ['findPerson', 'GET', '/api/people?email=Ann.Person%40Example.net'],
    ['exportPerson', 'GET', '/api/people/export?email=ann.person%40example.net'],
    ['erasePerson', 'POST', '/api/people/erase', json({ email: ' Ann.Person@example.net ' })],
    ['addContact', 'POST', '/api/audiences/1/contacts', json({ email: 'ann@example.net', data: { age: 41, vip: true, note: null } })],
    ['getContact', 'GET', '/api/audiences/1/contacts/2'],
    ['updateContact', 'PATCH', '/api/audiences/1/contacts/2', json({ data: { city: 'Lyon' }, freshConsent: false })],
    ['deleteContact', 'DELETE', '/api/audiences/1/contacts/2'],
    ['listAudienceFields', 'GET', '/api/audiences/1/fields'],
    [
      'addAudienceField',
      'POST',
      '/api/audiences/1/fields',
      json({ key: 'tier', label: 'Tier', type: 'CHOICE', options: ['Gold', 'Silver'] }),
    ],
    ['changeAudienceField', 'PATCH', '/api/audiences/1/fields/tier', json({ label: 'Membership tier', required: true })],
    ['removeAudienceField', 'DELETE', '/api/audiences/1/fields/tier?confirm=true'],
    ['getImportMapping', 'GET', '/api/audiences/1/import-mapping'],
    ['healthz', 'GET', '/healthz'],
    ['readyz', 'GET', '/readyz'],
    ['trackOpen', 'GET', '/t/o/eyJqIjo1fQ.c2ln'],
    ['trackClick', 'GET', '/t/c/eyJqIjo1LCJsIjoxfQ.c2ln'],
    ['unsubscribePage', 'GET', '/unsubscribe/eyJqIjo1fQ.c2ln'],
    ['unsubscribeOneClick', 'POST', '/unsubscribe/eyJqIjo1fQ.c2ln', { body: new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }) }],
    ['listSignupForms', 'GET', '/api/audiences/1/forms'],
    ['createSignupForm', 'POST', '/api/audiences/1/forms', json({ name: 'News', consentWording: 'I agree.' })],
    ['getSignupForm', 'GET', '/api/forms/8'],
    [
      'updateSignupForm',
      'PUT',
      '/api/forms/8',
      json({
        name: 'News',
        consentWording: 'I agree.',
        fields: [{ key: 'fullName', required: true }],
        allowedOrigins: ['https://www.example.org'],
      }),
    ],
    ['deleteSignupForm', 'DELETE', '/api/forms/8'],
    ['signupAsset', 'GET', '/subscribe/static/page.css'],
    ['signupConfirmPage', 'GET', '/subscribe/confirm/k3.sa8f2q.abcdefghijklmnopqrstuv'],
    ['signupConfirm', 'POST', '/subscribe/confirm/k3.sa8f2q.abcdefghijklmnopqrstuv', { body: new URLSearchParams({ confirm: 'yes' }) }],
    ['signupPage', 'GET', '/subscribe/news-abcdefghabcdefgh'],
    [
      'signupSubmit',
      'POST',
      '/subscribe/news-abcdefghabcdefgh',
      { body: new URLSearchParams({ email: 'mia@example.org', consent: 'yes' }) },
    ],
    ['signupChallenge', 'GET', '/subscribe/news-abcdefghabcdefgh/challenge'],
    ['exportAudienceConsent', 'GET', '/api/audiences/1/consent-export'],
    ['preferencesPage', 'GET', '/preferences/eyJqIjo1fQ.c2ln'],
    ['savePreferences', 'POST', '/preferences/eyJqIjo1fQ.c2ln', { body: new URLSearchParams({ form: 'x', action: 'save' }) }],
    ['updateAudience', 'PATCH', '/api/audiences/1', json({ publicName: ' Tree news ' })],
    ['listSegments', 'GET', '/api/audiences/1/segments'],
    [
      'createSegment',
      'POST',
      '/api/audiences/1/segments',
      json({ name: 'Parisians', rule: { combinator: 'and', rules: [{ field: 'fields.city', operator: 'equals', value: 'Paris' }] } }),
    ],
    [
      'countSegmentRule',
      'POST',
      '/api/audiences/1/segment-count?sample=true',
      json({ rule: { combinator: 'or', rules: [{ combinator: 'and', rules: [{ field: 'engagement.opened', operator: 'never' }] }] } }),
    ],
    ['getSegment', 'GET', '/api/segments/3'],
    ['updateSegment', 'PUT', '/api/segments/3', json({ name: 'Parisians', rule: { combinator: 'and', rules: [] } })],
    ['getCaller', 'GET', '/api/me'],
    ['listApiKeys', 'GET', '/api/api-keys'],
    [
      'createApiKey',
      'POST',
      '/api/api-keys',
      json({ name: 'Zapier', scopes: ['viewer', 'createAudience'], expiresAt: '2030-01-01T00:00:00Z' }),
    ],
    ['revokeApiKey', 'DELETE', '/api/api-keys/9'],
    ['deleteSegment', 'DELETE', '/api/segments/3'],
    ['listWebhookEndpoints', 'GET', '/api/webhooks'],
    [
      'createWebhookEndpoint',
      'POST',
      '/api/webhooks',
      json({ url: 'https://hooks.example.org/in', events: ['campaign.sent'], description: 'CRM' }),
    ],
    ['getWebhookEndpoint', 'GET', '/api/webhooks/2'],
    [
      'updateWebhookEndpoint',
      'PUT',
      '/api/webhooks/2',
      json({ url: 'https://hooks.example.org/in', events: ['contact.bounced'], enabled: false }),
    ],
    ['deleteWebhookEndpoint', 'DELETE', '/api/webhooks/2'],
    ['getWebhookSecret', 'GET', '/api/webhooks/2/secret'],
    ['rotateWebhookSecret', 'POST', '/api/webhooks/2/secret'],
    ['listWebhookDeliveries', 'GET', '/api/webhooks/2/deliveries?status=FAILED&before=40&limit=20'],
    ['getWebhookDelivery', 'GET', '/api/webhook-deliveries/7'],
    ['resendWebhookDelivery', 'POST', '/api/webhook-deliveries/7/resend'],
    [
      'sesWebhook',
      'POST',
      '/webhooks/ses',
      { body: '{"Type":"Notification","MessageId":"m-1"}', headers: { 'content-type': 'text/plain; charset=UTF-8' } },
    ],
  ];

  it('covers every operation', () => {
    expect(REQUESTS.map(([id]) => id).sort()).toEqual(operations.map((o) => o.op.operationId as string).sort());
  });

  it.each(REQUESTS)('%s: %s %s is routed and valid', async (operationId, method, path, init) => {
    const response = await fetch(baseUrl + path, { method, ...init });
    expect(await response.json()).toEqual({ operationId });
    expect(response.status).toBe(299);
  });

  it.each([
    ['limit above 1000', 'GET', '/api/audiences?limit=1001'],
    ['page 0', 'GET', '/api/templates?page=0'],
    ['an unknown query parameter', 'GET', '/api/campaigns?sort=name'],
    ['a non-integer id', 'GET', '/api/campaigns/abc'],
    ['limit above 999999', 'GET', '/api/reports/4/email-performance?limit=1000000'],
    ['an unknown send status', 'GET', '/api/reports/4/email-performance?sendStatus=DELIVERED'],
    ['an unknown body property', 'POST', '/api/audiences', json({ name: 'A', owner: 'x' })],
    ['a subject with CR LF', 'PUT', '/api/campaigns/4', json({ name: 'C', subject: 'Hi\r\nBcc: x@example.com' })],
    ['a sender name with LF', 'PUT', '/api/campaigns/4', json({ name: 'C', fromName: 'News\nBcc: x@example.com' })],
    ['a sender that is no e-mail', 'PUT', '/api/campaigns/4', json({ name: 'C', fromEmail: 'news' })],
    ['a one-click body other than One-Click', 'POST', '/unsubscribe/abc', { body: new URLSearchParams({ 'List-Unsubscribe': 'Yes' }) }],
    ['a token with other characters', 'GET', '/t/c/a%2Fb'],
    ['a person without an address', 'GET', '/api/people'],
    ['a blank address', 'GET', '/api/people?email=%20%20'],
    ['an erasure without an address', 'POST', '/api/people/erase', json({})],
    ['an erasure of a blank address', 'POST', '/api/people/erase', json({ email: ' ' })],
  ] as [string, string, string, RequestInit?][])('rejects %s with 400', async (_what, method, path, init) => {
    const response = await fetch(baseUrl + path, { method, ...init });
    expect(response.status).toBe(400);
  });
});
