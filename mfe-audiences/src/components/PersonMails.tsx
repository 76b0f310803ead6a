import { TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import type { PersonMail } from '@mailroom/api-client';
import { SEND_STATUS_LABELS } from '@mailroom/api-client/labels';
import { ScrollingTable, TruncatedText, formatDateTime } from '@mailroom/ui';
import { hitsInWords } from './words';

/** A mail's bounce or complaint, if any. */
const troubleOf = (mail: PersonMail) =>
  [mail.bounceType && `${mail.bounceType === 'HARD' ? 'Hard' : 'Soft'} bounce`, mail.complaintType && `Complaint (${mail.complaintType})`]
    .filter(Boolean)
    .join(', ') || '—';

/** The mails sent to the address, newest first: campaign, status, times, opens and clicks with people's and machines' apart. */
export function PersonMails({ mails }: { mails: PersonMail[] }) {
  return (
    <ScrollingTable aria-label="Mails" size="small">
      <TableHeader>
        <TableRow>
          <TableHeaderCell>Campaign</TableHeaderCell>
          <TableHeaderCell>Subject</TableHeaderCell>
          <TableHeaderCell>Status</TableHeaderCell>
          <TableHeaderCell>Sent</TableHeaderCell>
          <TableHeaderCell>Opens</TableHeaderCell>
          <TableHeaderCell>Clicks</TableHeaderCell>
          <TableHeaderCell>Bounce or complaint</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {mails.map((mail) => (
          <TableRow key={mail.id}>
            <TableCell>
              <TruncatedText text={mail.campaignName} />
            </TableCell>
            <TableCell>
              <TruncatedText text={mail.subject ?? '—'} />
            </TableCell>
            <TableCell>{SEND_STATUS_LABELS[mail.status]}</TableCell>
            <TableCell>{mail.sentAt ? formatDateTime(mail.sentAt) : '—'}</TableCell>
            <TableCell>{hitsInWords(mail.opens)}</TableCell>
            <TableCell>{hitsInWords(mail.clicks)}</TableCell>
            <TableCell>{troubleOf(mail)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </ScrollingTable>
  );
}
