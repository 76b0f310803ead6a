import { ConfirmDialog } from '@mailroom/ui';

/** 'Continue Campaign' (docs/product.md, Campaigns list): the question before a campaign in error continues. */
export function ContinueCampaignDialog({ onConfirm, onCancel }: { onConfirm: () => void; onCancel: () => void }) {
  return (
    <ConfirmDialog open title="Continue Campaign" confirmLabel="Continue Sending" onConfirm={onConfirm} onCancel={onCancel}>
      <p>Are you sure you want to continue sending emails for this campaign?</p>
      <p>This will attempt to send emails to contacts that haven&apos;t been sent to yet.</p>
    </ConfirmDialog>
  );
}
