import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { Schemas } from '@mailroom/api-client';
import { WEBHOOK_EVENT_LABELS } from '@mailroom/api-client/labels';
import { whoCan } from '@mailroom/mf-contract/roles';
import { useRole } from './useCaller';
import { useShellApi } from './useShellApi';
import { WebhookDeliveriesDialog } from './WebhookDeliveriesDialog';

type Endpoint = Schemas['WebhookEndpoint'];
type EventType = Schemas['WebhookEventType'];
type Delivery = Schemas['WebhookDelivery'];

const KEYS = ['shell', 'webhooks'] as const;
const EVENTS = Object.keys(WEBHOOK_EVENT_LABELS) as EventType[];

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, padding: tokens.spacingHorizontalL, minWidth: 0 },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '40rem' },
  events: { display: 'flex', flexDirection: 'column', border: 'none', margin: 0, padding: 0, minWidth: 0 },
  legend: { padding: 0, marginBottom: tokens.spacingVerticalXS, fontWeight: tokens.fontWeightSemibold },
  secret: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
  url: { wordBreak: 'break-all', minWidth: '12rem' },
  // A table wider than the screen scrolls in its own region, never the page (docs/decisions/frontends.md).
  scroller: { overflowX: 'auto', maxWidth: '100%' },
  table: { minWidth: '44rem' },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
});

/** An endpoint's latest delivery in words, read from its delivery log (the list does not carry it). */
function LastDelivery({ endpointId }: { endpointId: number }) {
  const api = useShellApi();
  const last = useQuery({
    queryKey: [...KEYS, endpointId, 'last-delivery'],
    queryFn: async () => (await api<{ items: Delivery[] }>('GET', `/api/webhooks/${endpointId}/deliveries?limit=1`)).items[0] ?? null,
  });
  if (last.isPending) return <Text>…</Text>;
  if (last.isError) return <Text>Unknown</Text>;
  const delivery = last.data;
  if (!delivery) return <Text>None yet</Text>;
  const event = WEBHOOK_EVENT_LABELS[delivery.eventType];
  if (delivery.status === 'DELIVERED')
    return <Text>{`Delivered ${new Date(delivery.deliveredAt ?? delivery.createdAt).toLocaleString()} (${event})`}</Text>;
  if (delivery.status === 'FAILED')
    return <Text>{`Failed after ${delivery.attempts} attempts: ${delivery.lastError ?? delivery.lastStatus}`}</Text>;
  return <Text>{delivery.attempts > 0 ? `Retrying (${delivery.lastError ?? delivery.lastStatus})` : 'Pending'}</Text>;
}

/**
 * The events as checkboxes named in words, in a fieldset named by `label` (not a Field: a Field would give every
 * checkbox its own label and id).
 */
function EventChoices({ label, value, onChange }: { label: string; value: EventType[]; onChange: (events: EventType[]) => void }) {
  const styles = useStyles();
  return (
    <fieldset className={styles.events}>
      <legend className={styles.legend}>{label}</legend>
      {EVENTS.map((event) => (
        <Checkbox
          key={event}
          label={WEBHOOK_EVENT_LABELS[event]}
          checked={value.includes(event)}
          onChange={(_e, data) =>
            onChange(data.checked ? EVENTS.filter((e) => e === event || value.includes(e)) : value.filter((e) => e !== event))
          }
        />
      ))}
      {value.length === 0 && <Text size={200}>Choose at least one event.</Text>}
    </fieldset>
  );
}

/**
 * An admin's outgoing webhooks (issue 27; docs/decisions/webhooks.md): the endpoints with their events, whether each is
 * on and how its latest delivery went; each one's delivery log, where a failed delivery is sent again; a new endpoint;
 * changing its events or switching it off; a new signing secret; deleting it. A secret is shown once, when made, with a
 * copy button. Dialogs stay mounted and are opened by `open`: one unmounted while open leaves the page aria-hidden
 * (Fluent's focus manager).
 */
export function WebhooksPage() {
  const styles = useStyles();
  const api = useShellApi();
  const queryClient = useQueryClient();
  const { role } = useRole();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventType[]>([]);
  const [secret, setSecret] = useState<{ url: string; secret: string; rotated: boolean } | null>(null);
  const [copied, setCopied] = useState('');
  const [editing, setEditing] = useState<Endpoint | null>(null);
  const [editEvents, setEditEvents] = useState<EventType[]>([]);
  const [editEnabled, setEditEnabled] = useState(true);
  const [rotating, setRotating] = useState<Endpoint | null>(null);
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  const [logOf, setLogOf] = useState<Endpoint | null>(null);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: KEYS });
  const endpoints = useQuery({
    queryKey: KEYS,
    queryFn: async () => (await api<{ items: Endpoint[] }>('GET', '/api/webhooks')).items,
    enabled: role === 'admin',
  });
  const create = useMutation({
    mutationFn: () => api<Schemas['WebhookEndpointWithSecret']>('POST', '/api/webhooks', { url: url.trim(), events }),
    onSuccess: (made) => {
      showSecret({ url: made.url, secret: made.secret, rotated: false });
      setUrl('');
      setEvents([]);
      refresh();
    },
  });
  const change = useMutation({
    mutationFn: (endpoint: Endpoint) =>
      api<Endpoint>('PUT', `/api/webhooks/${endpoint.id}`, {
        url: endpoint.url,
        description: endpoint.description,
        events: editEvents,
        enabled: editEnabled,
      }),
    onSuccess: () => {
      setEditing(null);
      refresh();
    },
  });
  const rotate = useMutation({
    mutationFn: (endpoint: Endpoint) => api<Schemas['WebhookSecret']>('POST', `/api/webhooks/${endpoint.id}/secret`),
    onSuccess: (answer, endpoint) => {
      setRotating(null);
      showSecret({ url: endpoint.url, secret: answer.secret, rotated: true });
    },
  });
  const remove = useMutation({
    mutationFn: (endpoint: Endpoint) => api<unknown>('DELETE', `/api/webhooks/${endpoint.id}`),
    onSuccess: () => {
      setDeleting(null);
      refresh();
    },
  });

  function showSecret(shown: { url: string; secret: string; rotated: boolean }) {
    setCopied('');
    setSecret(shown);
  }

  if (role !== 'admin') {
    return (
      <section className={styles.page} aria-labelledby="webhooks-title">
        <Title2 as="h1" id="webhooks-title">
          Webhooks
        </Title2>
        <Text>{whoCan('admin')} can manage webhooks.</Text>
      </section>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (url.trim() && events.length > 0) create.mutate();
  };
  const openEdit = (endpoint: Endpoint) => {
    change.reset();
    setEditEvents(endpoint.events);
    setEditEnabled(endpoint.enabled);
    setEditing(endpoint);
  };
  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret.secret);
      setCopied('Copied.');
    } catch {
      // A browser that refuses the clipboard (no permission, not a secure page): the secret is on screen to select.
      setCopied('Copying failed: select the secret and copy it.');
    }
  };

  return (
    <section className={styles.page} aria-labelledby="webhooks-title">
      <Title2 as="h1" id="webhooks-title">
        Webhooks
      </Title2>
      <Text>
        Mailroom posts each chosen event to an endpoint, signed with the endpoint&apos;s secret in the Standard Webhooks format (webhook-id,
        webhook-timestamp, webhook-signature headers). Failed deliveries are retried for 24 hours.
      </Text>

      <form className={styles.form} onSubmit={submit} aria-label="New webhook endpoint">
        <Field label="Endpoint URL" required hint="An https:// address; in production only public addresses are reached.">
          <Input
            type="url"
            value={url}
            maxLength={2000}
            placeholder="https://example.org/hooks/mailroom"
            onChange={(_event, data) => setUrl(data.value)}
          />
        </Field>
        <EventChoices label="Events to send" value={events} onChange={setEvents} />
        <div>
          <Button type="submit" appearance="primary" disabled={!url.trim() || events.length === 0 || create.isPending}>
            Add endpoint
          </Button>
        </div>
      </form>
      {create.isError && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{create.error.message}</MessageBarBody>
        </MessageBar>
      )}
      {remove.isError && !deleting && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{remove.error.message}</MessageBarBody>
        </MessageBar>
      )}

      {endpoints.isError && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>Failed to load the webhook endpoints: {endpoints.error.message}</MessageBarBody>
        </MessageBar>
      )}
      {endpoints.isSuccess && endpoints.data.length === 0 && (
        <Text>No endpoints yet. Add one above to have Mailroom tell another tool what happens.</Text>
      )}
      {endpoints.isSuccess && endpoints.data.length > 0 && (
        <div className={styles.scroller} role="region" aria-label="Webhook endpoints" tabIndex={0}>
          <Table aria-label="Webhook endpoints" className={styles.table}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell>URL</TableHeaderCell>
                <TableHeaderCell>Events</TableHeaderCell>
                <TableHeaderCell>Active</TableHeaderCell>
                <TableHeaderCell>Last delivery</TableHeaderCell>
                <TableHeaderCell>Actions</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {endpoints.data.map((endpoint) => (
                <TableRow key={endpoint.id}>
                  <TableCell className={styles.url}>{endpoint.url}</TableCell>
                  <TableCell>
                    {/* In the checkboxes' order, whatever order the API keeps them in. */}
                    {EVENTS.filter((event) => endpoint.events.includes(event))
                      .map((event) => WEBHOOK_EVENT_LABELS[event])
                      .join(', ')}
                  </TableCell>
                  <TableCell>{endpoint.enabled ? 'Yes' : 'No'}</TableCell>
                  <TableCell>
                    <LastDelivery endpointId={endpoint.id} />
                  </TableCell>
                  <TableCell>
                    <div className={styles.actions}>
                      <Button size="small" aria-label={`Edit ${endpoint.url}`} onClick={() => openEdit(endpoint)}>
                        Edit
                      </Button>
                      <Button size="small" aria-label={`Deliveries to ${endpoint.url}`} onClick={() => setLogOf(endpoint)}>
                        Deliveries
                      </Button>
                      <Button
                        size="small"
                        aria-label={`New secret for ${endpoint.url}`}
                        onClick={() => {
                          rotate.reset();
                          setRotating(endpoint);
                        }}
                      >
                        New secret
                      </Button>
                      <Button
                        size="small"
                        aria-label={`Delete ${endpoint.url}`}
                        onClick={() => {
                          remove.reset();
                          setDeleting(endpoint);
                        }}
                      >
                        Delete
                      </Button>
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}

      <WebhookDeliveriesDialog endpoint={logOf} onClose={() => setLogOf(null)} />

      {/* The secret, shown this once (after adding an endpoint or rotating its secret). */}
      <Dialog open={secret !== null} onOpenChange={(_event, data) => !data.open && setSecret(null)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{secret?.rotated ? 'The new signing secret' : 'The endpoint’s signing secret'}</DialogTitle>
            <DialogContent>
              <Text block>
                The secret for {secret?.url}, shown this once: copy it now into the receiving tool, which checks each delivery&apos;s
                signature with it.{secret?.rotated ? ' The old secret no longer signs.' : ''}
              </Text>
              <Text block className={styles.secret} data-testid="webhook-secret">
                {secret?.secret}
              </Text>
              <Text block role="status">
                {copied}
              </Text>
            </DialogContent>
            <DialogActions>
              <Button appearance="primary" onClick={() => void copy()}>
                Copy secret
              </Button>
              <Button onClick={() => setSecret(null)}>Done</Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>

      <Dialog open={editing !== null} onOpenChange={(_event, data) => !data.open && setEditing(null)}>
        <DialogSurface>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (editing && editEvents.length > 0) change.mutate(editing);
            }}
          >
            <DialogBody>
              <DialogTitle>Edit the endpoint</DialogTitle>
              <DialogContent className={styles.form}>
                <Text className={styles.url}>{editing?.url}</Text>
                <EventChoices label="Events to send" value={editEvents} onChange={setEditEvents} />
                <Switch label="Active" checked={editEnabled} onChange={(_event, data) => setEditEnabled(data.checked)} />
                {change.isError && (
                  <MessageBar intent="error" role="alert">
                    <MessageBarBody>{change.error.message}</MessageBarBody>
                  </MessageBar>
                )}
              </DialogContent>
              <DialogActions>
                <Button type="submit" appearance="primary" disabled={editEvents.length === 0 || change.isPending}>
                  Save
                </Button>
                <Button onClick={() => setEditing(null)}>Cancel</Button>
              </DialogActions>
            </DialogBody>
          </form>
        </DialogSurface>
      </Dialog>

      <Dialog open={rotating !== null} onOpenChange={(_event, data) => !data.open && setRotating(null)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>Make a new secret?</DialogTitle>
            <DialogContent>
              <Text block>
                {rotating?.url} will be signed with a new secret at once; the receiving tool needs the new one before it accepts further
                deliveries.
              </Text>
              {rotate.isError && (
                <MessageBar intent="error" role="alert">
                  <MessageBarBody>{rotate.error.message}</MessageBarBody>
                </MessageBar>
              )}
            </DialogContent>
            <DialogActions>
              <Button appearance="primary" disabled={rotate.isPending} onClick={() => rotating && rotate.mutate(rotating)}>
                Make a new secret
              </Button>
              <Button onClick={() => setRotating(null)}>Cancel</Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>

      <Dialog open={deleting !== null} onOpenChange={(_event, data) => !data.open && setDeleting(null)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>Delete the endpoint?</DialogTitle>
            <DialogContent>
              <Text block className={styles.url}>
                {deleting?.url} will receive nothing more, and its delivery log is deleted with it.
              </Text>
              {remove.isError && (
                <MessageBar intent="error" role="alert">
                  <MessageBarBody>{remove.error.message}</MessageBarBody>
                </MessageBar>
              )}
            </DialogContent>
            <DialogActions>
              <Button appearance="primary" disabled={remove.isPending} onClick={() => deleting && remove.mutate(deleting)}>
                Delete
              </Button>
              <Button onClick={() => setDeleting(null)}>Cancel</Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </section>
  );
}
