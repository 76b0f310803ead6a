export interface Profile {
  firstName: string;
  lastName: string;
  email: string;
}

/** The sign-in the shell needs, kept behind an interface so tests can replace the identity provider. */
export interface AuthService {
  /**
   * On load: completes a redirect sign-in when the page is the callback, otherwise runs the silent
   * single-sign-on check. Resolves to the signed-in profile (with where to go after a redirect
   * sign-in), or null when nobody is signed in.
   */
  restoreSession(): Promise<{ profile: Profile; returnTo?: string } | null>;
  /** Starts the provider's login page; `returnTo` is where to land afterwards. */
  signIn(returnTo?: string): Promise<void>;
  /** Logs out at the provider too (back to /login). */
  signOut(): Promise<void>;
  /** Drops the local session only (a non-member). */
  forget(): Promise<void>;
  /** The current access token, renewed silently when it has expired; null when signed out. */
  getAccessToken(): Promise<string | null>;
  /** Called when the session ends by itself (logout elsewhere, expired and not renewable). */
  onSessionEnded(listener: () => void): () => void;
}
