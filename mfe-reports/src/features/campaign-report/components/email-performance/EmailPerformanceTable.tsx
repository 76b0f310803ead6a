import {
  Badge,
  Button,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Tooltip,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, SendRegular } from '@fluentui/react-icons';
import type { EmailPerformanceRow } from '@mailroom/api-client';
import { formatDateTime, ScrollingTable, TruncatedText } from '@mailroom/ui';
import type { ReactElement } from 'react';
import { SEND_STATUSES } from './sendStatus';

/** The ten columns of SPEC section 2. */
export const EMAIL_PERFORMANCE_COLUMNS = [
  'Email',
  'Send Status',
  'Clicked',
  'Opened',
  'Bounce Type',
  'Bounce Message',
  'Bounce Time',
  'Complaint Type',
  'Complaint Time',
  'Error Message',
] as const;

const useStyles = makeStyles({
  status: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
});

export interface EmailPerformanceTableProps {
  rows: EmailPerformanceRow[];
  onRetryJob: (jobId: number) => void;
  onSendToContact: (contactId: number) => void;
  /** The job and the contact whose request is in flight: their buttons are disabled meanwhile. */
  retryingJobId?: number;
  sendingContactId?: number;
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
const text = (value: string | null) => (value ? <TruncatedText text={value} /> : null);

export function EmailPerformanceTable({ rows, onRetryJob, onSendToContact, retryingJobId, sendingContactId }: EmailPerformanceTableProps) {
  const styles = useStyles();

  const action = (label: string, icon: ReactElement, disabled: boolean, onClick: () => void) => (
    <Tooltip content={label} relationship="label">
      <Button appearance="subtle" size="small" icon={icon} disabled={disabled} onClick={onClick} />
    </Tooltip>
  );
  const retryButton = (jobId: number) =>
    action('Retry sending this failed email', <ArrowClockwiseRegular />, retryingJobId === jobId, () => onRetryJob(jobId));
  const sendButton = (contactId: number) =>
    action('Send email to this contact', <SendRegular />, sendingContactId === contactId, () => onSendToContact(contactId));

  return (
    <ScrollingTable aria-label="Email performance" size="small">
      <TableHeader>
        <TableRow>
          {EMAIL_PERFORMANCE_COLUMNS.map((column) => (
            <TableHeaderCell key={column}>{column}</TableHeaderCell>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.length === 0 ? (
          <TableRow>
            <TableCell colSpan={EMAIL_PERFORMANCE_COLUMNS.length}>No data available</TableCell>
          </TableRow>
        ) : (
          rows.map((row) => {
            const status = SEND_STATUSES[row.status];
            return (
              <TableRow key={`${row.contactId}-${row.id ?? 'not-sent'}`}>
                <TableCell>{row.email ? <TruncatedText text={row.email} /> : 'N/A'}</TableCell>
                <TableCell>
                  <span className={styles.status}>
                    <Badge appearance="tint" color={status.color}>
                      {status.label}
                    </Badge>
                    {row.status === 'FAILED' && row.id !== null && retryButton(row.id)}
                    {row.status === 'NOT_SENT' && sendButton(row.contactId)}
                  </span>
                </TableCell>
                <TableCell>{yesNo(row.clicked)}</TableCell>
                <TableCell>{yesNo(row.opened)}</TableCell>
                <TableCell>{row.bounceType ?? 'None'}</TableCell>
                <TableCell>{text(row.bounceMessage)}</TableCell>
                <TableCell>{formatDateTime(row.bounceTime)}</TableCell>
                <TableCell>{text(row.complaintType)}</TableCell>
                <TableCell>{formatDateTime(row.complaintTime)}</TableCell>
                <TableCell>{text(row.errorMessage)}</TableCell>
              </TableRow>
            );
          })
        )}
      </TableBody>
    </ScrollingTable>
  );
}
