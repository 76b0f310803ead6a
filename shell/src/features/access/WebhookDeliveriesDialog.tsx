import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  MessageBar,
  MessageBarBody,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
} from '@fluentui/react-components';
import type { Schemas } from '@mailroom/api-client';
import { WEBHOOK_EVENT_LABELS } from '@mailroom/api-client/labels';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useShellApi } from './useShellApi';

type Endpoint = Schemas['WebhookEndpoint'];
type Delivery = Schemas['WebhookDelivery'];

/** The deliveries shown: the newest, as many as one page of the API's log gives. */
export const DELIVERIES_SHOWN = 50;

const useStyles = makeStyles({
  // The log scrolls inside the dialog, never the page (docs/decisions/frontends.md).
  scroller: { overflowX: 'auto', maxWidth: '100%' },
  table: { minWidth: '40rem' },
  url: { wordBreak: 'break-all' },
});

/** A delivery's state in words: what an admin needs to decide whether to send it again. */
function outcome(delivery: Delivery): string {
  const answer = delivery.lastError ?? (delivery.lastStatus === null ? null : `HTTP ${delivery.lastStatus}`);
  if (delivery.status === 'DELIVERED') return 'Delivered';
  if (delivery.status === 'FAILED') return `Failed${answer ? `: ${answer}` : ''}`;
  return delivery.attempts > 0 ? `Retrying${answer ? ` (${answer})` : ''}` : 'Pending';
}

/**
 * An endpoint's delivery log (issue 27: "every delivery is logged with its attempts, and failed ones can be re-sent"):
 * the newest deliveries with their event, time, attempts and outcome, and 'Send again' for a failed one, which the
 * API makes due again with the same webhook-id, so a receiver that already had it can drop the copy. Mounted with the
 * page and opened by `open` (docs/decisions/frontends.md).
 */
export function WebhookDeliveriesDialog({ endpoint, onClose }: { endpoint: Endpoint | null; onClose: () => void }) {
  const styles = useStyles();
  const api = useShellApi();
  const queryClient = useQueryClient();
  const key = ['shell', 'webhooks', endpoint?.id, 'deliveries'] as const;
  const deliveries = useQuery({
    queryKey: key,
    queryFn: async () =>
      (await api<{ items: Delivery[] }>('GET', `/api/webhooks/${endpoint!.id}/deliveries?limit=${DELIVERIES_SHOWN}`)).items,
    enabled: endpoint !== null,
  });
  const resend = useMutation({
    mutationFn: (delivery: Delivery) => api<unknown>('POST', `/api/webhook-deliveries/${delivery.id}/resend`),
    // The log and the list's last delivery are read again: the delivery is pending once more.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['shell', 'webhooks'] }),
  });

  return (
    <Dialog
      open={endpoint !== null}
      onOpenChange={(_event, data) => {
        if (!data.open) {
          resend.reset();
          onClose();
        }
      }}
    >
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Deliveries</DialogTitle>
          <DialogContent>
            <Text block className={styles.url}>
              The newest deliveries to {endpoint?.url}. A failed one can be sent again, with the same webhook-id.
            </Text>
            {resend.isSuccess && (
              <MessageBar intent="success">
                <MessageBarBody>The delivery is due again and will be tried for another 24 hours.</MessageBarBody>
              </MessageBar>
            )}
            {resend.isError && (
              <MessageBar intent="error" role="alert">
                <MessageBarBody>{resend.error.message}</MessageBarBody>
              </MessageBar>
            )}
            {deliveries.isPending && endpoint !== null && <Spinner size="small" label="Loading deliveries..." />}
            {deliveries.isError && (
              <MessageBar intent="error" role="alert">
                <MessageBarBody>Failed to load the deliveries: {deliveries.error.message}</MessageBarBody>
              </MessageBar>
            )}
            {deliveries.isSuccess && deliveries.data.length === 0 && <Text block>Nothing has been delivered to this endpoint yet.</Text>}
            {deliveries.isSuccess && deliveries.data.length > 0 && (
              <div className={styles.scroller} role="region" aria-label="Deliveries table" tabIndex={0}>
                <Table aria-label="Deliveries" className={styles.table} size="small">
                  <TableHeader>
                    <TableRow>
                      <TableHeaderCell>Event</TableHeaderCell>
                      <TableHeaderCell>Recorded</TableHeaderCell>
                      <TableHeaderCell>Attempts</TableHeaderCell>
                      <TableHeaderCell>Outcome</TableHeaderCell>
                      <TableHeaderCell>Actions</TableHeaderCell>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {deliveries.data.map((delivery) => (
                      <TableRow key={delivery.id}>
                        <TableCell>{WEBHOOK_EVENT_LABELS[delivery.eventType]}</TableCell>
                        <TableCell>{new Date(delivery.createdAt).toLocaleString()}</TableCell>
                        <TableCell>{delivery.attempts}</TableCell>
                        <TableCell>{outcome(delivery)}</TableCell>
                        <TableCell>
                          {delivery.status === 'FAILED' && (
                            <Button
                              size="small"
                              aria-label={`Send again the ${WEBHOOK_EVENT_LABELS[delivery.eventType]} delivery of ${new Date(delivery.createdAt).toLocaleString()}`}
                              disabled={resend.isPending}
                              onClick={() => resend.mutate(delivery)}
                            >
                              Send again
                            </Button>
                          )}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </div>
            )}
          </DialogContent>
          <DialogActions>
            <Button
              onClick={() => {
                resend.reset();
                onClose();
              }}
            >
              Close
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
