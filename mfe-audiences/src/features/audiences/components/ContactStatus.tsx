import { Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { CheckmarkCircleRegular, ErrorCircleRegular, ProhibitedRegular } from '@fluentui/react-icons';
import type { Contact } from '@mailroom/api-client';
import { LEFT_AUDIENCE_LABEL, suppressedLabel } from '@mailroom/api-client/labels';
import { formatDateTime } from '@mailroom/ui';

const useStyles = makeStyles({
  icon: { display: 'inline-flex', fontSize: '20px' },
  error: { color: tokens.colorPaletteRedForeground1 },
  valid: { color: tokens.colorPaletteGreenForeground1 },
  suppressed: {
    display: 'inline-flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalXS,
    whiteSpace: 'nowrap',
    color: tokens.colorNeutralForeground2,
  },
});

/**
 * An error icon carrying the contact's error message (tooltip), or a success check. An addition to
 * the spec: a valid contact whose address is suppressed (unsubscribed, bounced, complained, added by a
 * member) is never sent to, so it reads 'Suppressed' with its reason, in words, instead of the check. An
 * erased address imported again says when it was erased (issue 24). A contact that left this audience in the
 * preference centre reads 'Unsubscribed from this audience' (issue 25).
 */
export function ContactStatus({ contact }: { contact: Contact }) {
  const styles = useStyles();
  if (contact.errorMessage) {
    return (
      <Tooltip content={contact.errorMessage} relationship="label">
        <span className={mergeClasses(styles.icon, styles.error)} role="img" tabIndex={0}>
          <ErrorCircleRegular />
        </span>
      </Tooltip>
    );
  }
  if (contact.suppressionReason) {
    return (
      <span className={styles.suppressed}>
        <ProhibitedRegular fontSize={20} aria-hidden />
        {contact.suppressionReason === 'ERASED' && contact.erasedAt
          ? `${suppressedLabel('ERASED')}: this address was erased on ${formatDateTime(contact.erasedAt)}`
          : suppressedLabel(contact.suppressionReason)}
      </span>
    );
  }
  // Issue 25: the person left this audience in the preference centre; the contact stays, and is not mailed.
  if (contact.unsubscribedAt) {
    return (
      <span className={styles.suppressed}>
        <ProhibitedRegular fontSize={20} aria-hidden />
        {LEFT_AUDIENCE_LABEL}
      </span>
    );
  }
  return (
    <span className={mergeClasses(styles.icon, styles.valid)} role="img" aria-label="Valid">
      <CheckmarkCircleRegular />
    </span>
  );
}
