import { makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  frame: {
    display: 'block',
    width: '100%',
    height: '100%',
    minHeight: '480px',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    // Emails are designed on white; the frame keeps it in the dark theme too.
    backgroundColor: '#ffffff',
  },
});

/**
 * A rendered email in a frame. The html is the template's, written by whoever designed it: the empty
 * sandbox gives the frame an opaque origin with no scripts, forms or navigation of the app's window, so
 * nothing in it runs as the app.
 */
export function EmailFrame({ html, title }: { html: string; title: string }) {
  const styles = useStyles();
  return <iframe className={styles.frame} title={title} sandbox="" srcDoc={html} />;
}
