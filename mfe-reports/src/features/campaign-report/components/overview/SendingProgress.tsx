import { Field, ProgressBar } from '@fluentui/react-components';

/** (jobsSent + jobsFailed) / contactCount (docs/product.md, the screens and their states), within 0..1; nothing to send counts as nothing done. */
export function sendingProgress(jobsSent: number, jobsFailed: number, contactCount: number): number {
  if (contactCount <= 0) return 0;
  return Math.min(1, (jobsSent + jobsFailed) / contactCount);
}

export function SendingProgress({ value }: { value: number }) {
  return (
    <Field label="Sending progress" hint={`${Math.round(value * 100)}%`}>
      <ProgressBar value={value} thickness="large" />
    </Field>
  );
}
