import { useLocation } from 'react-router-dom';
import { Button, MessageBar, MessageBarBody, Title1, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useAuth } from '../auth/AuthProvider';
import { useShell } from '../../ShellContext';
import { WIDE_SCREEN, useMediaQuery } from '../layout/useMediaQuery';
import { useLoginBackground } from './useLoginBackground';

const useStyles = makeStyles({
  page: { display: 'flex', minHeight: '100vh' },
  panel: {
    flex: '1 1 420px',
    display: 'flex',
    flexDirection: 'column',
    justifyContent: 'center',
    alignItems: 'center',
    gap: tokens.spacingVerticalXL,
    padding: tokens.spacingHorizontalXXL,
    textAlign: 'center',
  },
  photo: { flex: '1 1 60%', backgroundSize: 'cover', backgroundPosition: 'center' },
  narrowPhoto: { width: '160px', height: '160px', borderRadius: tokens.borderRadiusCircular, objectFit: 'cover' },
});

/** What a tab shows when its session was ended elsewhere (another tab's logout, the provider). */
export const SESSION_ENDED_MESSAGE = 'You have been signed out. Sign in again to continue.';

/**
 * /login: one button to the organisation's identity provider, and a food photo beside it on wide
 * windows; a note when the session was ended elsewhere.
 */
export function LoginPage() {
  const styles = useStyles();
  const { config } = useShell();
  const { signIn, state } = useAuth();
  const location = useLocation();
  const wide = useMediaQuery(WIDE_SCREEN);
  const background = useLoginBackground(config.stockPhoto, wide);
  const from = (location.state as { from?: string } | null)?.from;

  return (
    <div className={styles.page}>
      <main className={styles.panel}>
        {!wide && <img className={styles.narrowPhoto} src={background.url} alt="" />}
        <Title1 as="h1">Mailroom</Title1>
        <Text>Audiences, templates and campaigns for {config.orgName}.</Text>
        {state.status === 'signedOut' && state.sessionEnded && (
          <MessageBar intent="info" role="status">
            <MessageBarBody>{SESSION_ENDED_MESSAGE}</MessageBarBody>
          </MessageBar>
        )}
        <Button appearance="primary" size="large" onClick={() => signIn(from)}>
          Sign In With {config.orgName} ID
        </Button>
      </main>
      {wide && (
        <div
          className={styles.photo}
          style={{ backgroundImage: `url("${background.url}")` }}
          role="img"
          aria-label="Food photo"
          data-testid="login-background"
          data-source={background.source}
        />
      )}
    </div>
  );
}
