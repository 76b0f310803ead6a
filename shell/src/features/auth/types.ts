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
  /**
   * Starts the provider's login page; `returnTo` is where to land afterwards. After a refusal
   * (`forget`) in this tab, the provider is asked to show its login form (prompt=login).
   */
  signIn(returnTo?: string): Promise<void>;
  /** Logs out at the provider too (back to /login), and tells the browser's other tabs. */
  signOut(): Promise<void>;
  /** Drops the local session of a refused account (a non-member); the next sign-in lets the person choose another. */
  forget(): Promise<void>;
  /** The current access token, renewed silently when it has expired; null when signed out. */
  getAccessToken(): Promise<string | null>;
  /**
   * Called when a signed-in session ends by itself: a logout in another tab of this browser, a logout
   * at the provider (checked every 5 s), an expired token that cannot be renewed.
   */
  onSessionEnded(listener: () => void): () => void;
}
