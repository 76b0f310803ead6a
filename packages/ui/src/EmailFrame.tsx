import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  frame: {
    display: 'block',
    // Its border inside the 100%: otherwise the frame is two pixels wider than its box, which then scrolls sideways.
    boxSizing: 'border-box',
    width: '100%',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    // Emails are designed on white; the frame keeps it in the dark theme too.
    backgroundColor: '#ffffff',
  },
});

export interface EmailFrameProps {
  html: string;
  /** The frame's accessible name, e.g. 'Campaign email'. */
  title: string;
  /** Its height, which the caller's layout decides. */
  className?: string;
}

/**
 * A rendered email in a frame. The html is the template's, written by whoever designed it: the empty
 * sandbox gives the frame an opaque origin with no scripts, forms, popups or navigation of the app's
 * window, so nothing in it runs as the app.
 */
export function EmailFrame({ html, title, className }: EmailFrameProps) {
  const styles = useStyles();
  return <iframe className={mergeClasses(styles.frame, className)} title={title} sandbox="" srcDoc={html} />;
}
