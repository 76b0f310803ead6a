import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  frame: {
    display: 'block',
    width: '100%',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    // Mail is designed on white; the frame keeps it so in the dark theme too.
    backgroundColor: '#ffffff',
  },
});

/**
 * A sent campaign's html is whatever its template held, so it is untrusted: it is shown only as `srcdoc` of a
 * frame with an empty sandbox (no script, an opaque origin, no forms, popups or top navigation).
 */
export function EmailFrame({ html, title, className }: { html: string; title: string; className?: string }) {
  const styles = useStyles();
  return <iframe className={mergeClasses(styles.frame, className)} title={title} sandbox="" srcDoc={html} />;
}
