import { ConfirmDialog } from '@mailroom/ui';

/** The question before a campaign paused at the daily quota is stopped instead of resuming by itself (issue 28). */
export function StopCampaignDialog({ onConfirm, onCancel }: { onConfirm: () => void; onCancel: () => void }) {
  return (
    <ConfirmDialog open title="Stop Campaign" confirmLabel="Stop Sending" onConfirm={onConfirm} onCancel={onCancel}>
      <p>Are you sure you want to stop sending this campaign? It will not resume by itself.</p>
      <p>The contacts not sent to yet stay for &apos;Continue sending&apos;.</p>
    </ConfirmDialog>
  );
}
