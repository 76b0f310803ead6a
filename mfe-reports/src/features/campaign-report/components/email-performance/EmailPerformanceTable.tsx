import { Badge, TableBody, TableCell, TableRow } from '@fluentui/react-components';
import { ArrowClockwiseRegular, SendRegular } from '@fluentui/react-icons';
import type { EmailPerformanceRow } from '@mailroom/api-client';
import { bounceTypeLabel, EMAIL_PERFORMANCE_COLUMNS } from '@mailroom/api-client/labels';
import { CellItems, ColumnHeaders, formatDateTime, IconButton, ScrollingTable, TruncatedText, useRoleAllows } from '@mailroom/ui';
import { HitVerdict } from './HitVerdict';
import { statusChip } from './sendStatus';

export interface EmailPerformanceTableProps {
  rows: EmailPerformanceRow[];
  onRetryJob: (jobId: number) => void;
  onSendToContact: (contactId: number) => void;
  /** The job and the contact whose request is in flight: their buttons are disabled meanwhile. */
  retryingJobId?: number;
  sendingContactId?: number;
}

const text = (value: string | null) => (value ? <TruncatedText text={value} /> : null);

export function EmailPerformanceTable({ rows, onRetryJob, onSendToContact, retryingJobId, sendingContactId }: EmailPerformanceTableProps) {
  // A row's retry and send are a sender's (x-mailroom-role); below, the icons are left out: an icon's tooltip is its
  // name, with no room to say who can, and the tab's Retry All Failed and Send to all NOT_SENT say it.
  const maySend = useRoleAllows('sender');
  const retryButton = (jobId: number) =>
    maySend && (
      <IconButton
        size="small"
        label="Retry sending this failed email"
        icon={<ArrowClockwiseRegular />}
        disabled={retryingJobId === jobId}
        onClick={() => onRetryJob(jobId)}
      />
    );
  const sendButton = (contactId: number) =>
    maySend && (
      <IconButton
        size="small"
        label="Send email to this contact"
        icon={<SendRegular />}
        disabled={sendingContactId === contactId}
        onClick={() => onSendToContact(contactId)}
      />
    );

  return (
    <ScrollingTable aria-label="Email performance" size="small">
      <ColumnHeaders columns={EMAIL_PERFORMANCE_COLUMNS} />
      <TableBody>
        {rows.length === 0 ? (
          <TableRow>
            <TableCell colSpan={EMAIL_PERFORMANCE_COLUMNS.length}>No data available</TableCell>
          </TableRow>
        ) : (
          rows.map((row) => {
            const status = statusChip(row);
            return (
              <TableRow key={`${row.contactId}-${row.id ?? 'not-sent'}`}>
                <TableCell>{row.email ? <TruncatedText text={row.email} /> : 'N/A'}</TableCell>
                <TableCell>
                  <CellItems>
                    <Badge appearance="tint" color={status.color}>
                      {status.label}
                    </Badge>
                    {row.status === 'FAILED' && row.id !== null && retryButton(row.id)}
                    {/* A suppressed address is never sent to (the API answers 409): no send action. */}
                    {row.status === 'NOT_SENT' && !row.suppressionReason && sendButton(row.contactId)}
                  </CellItems>
                </TableCell>
                {/* 'Yes (machine)': only machines opened or clicked, and why (additions to the spec). */}
                <TableCell>
                  <HitVerdict any={row.clicked} human={row.humanClicked} evidence={row.clickEvidence} />
                </TableCell>
                <TableCell>
                  <HitVerdict any={row.opened} human={row.humanOpened} evidence={row.openEvidence} />
                </TableCell>
                <TableCell>{bounceTypeLabel(row.bounceType)}</TableCell>
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
